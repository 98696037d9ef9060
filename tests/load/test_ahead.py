"""Typing ahead (load/ahead.py): a small bundle loaded with its files typed on a second
connection leaves the database exactly as a load that types each file itself, and rejects the
same files with the same words."""

import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline.load import ahead, db
from pipeline.load.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
AS_OF = dt.date(2026, 12, 31)


def _load(bundle: Path, path: Path, second: str, monkeypatch, typed: list):
    monkeypatch.setenv("POUND_BUILD_CONNECTIONS", second)
    con = db.connect(path)
    try:
        result = ingest(con, bundle, as_of=AS_OF)
        return db.snapshot(con), [(f.label, f.status, [p.render() for p in f.problems]) for f in result.files]
    finally:
        con.close()


@pytest.mark.parametrize("bundle", ["data/sample", "tests/golden/bundle", "bad"])
def test_a_bundle_typed_ahead_loads_as_one_typed_file_by_file(bundle, tmp_path, monkeypatch):
    if bundle == "bad":
        src = tmp_path / "bad"
        shutil.copytree(ROOT / "data" / "sample", src)
        sales = src / "registers" / "sales.csv"
        sales.write_text(sales.read_text(encoding="utf-8").replace("29/08/2026", "29/08/26"), encoding="utf-8")
    else:
        src = ROOT / bundle
    taken: list = []
    real_ahead, real_rows = ahead.cells.type_ahead, ahead.cells.type_rows
    monkeypatch.setattr(ahead.cells, "type_ahead", lambda *a: taken.append(a[2]) or real_ahead(*a))
    used: list = []
    monkeypatch.setattr(ahead.cells, "type_rows", lambda con, read, early=None: used.append(early is not None)
                        or real_rows(con, read, early))
    two = _load(src, tmp_path / "two.duckdb", "2", monkeypatch, taken)
    assert len(taken) > 10 and sum(used) > 10, "the plain files were typed ahead, and the loader took them"
    taken.clear()
    used.clear()
    one = _load(src, tmp_path / "one.duckdb", "1", monkeypatch, taken)
    assert taken == [] and not any(used)
    assert two == one
    if bundle == "bad":
        assert any(status == "rejected" for _, status, _ in one[1])
