"""The four large exports (case_accounts, fund_movements, reconciliation, owner_accounts): written by
`pound run` and `pound build` up to LARGE_EXPORT_MAX_ROWS rows each, or with --exports all, and at
any size by `pound export`, whose tables equal, row for row, what a build wrote."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from pipeline.outputs import exports

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
LARGE_FILES = sorted(f"{exports.BY_TABLE[t].name}.csv" for t in exports.LARGE_EXPORTS)


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _paise(text: str) -> str:
    return "" if text == "" else str(int(Decimal(text) * 100))


@pytest.fixture
def small_limit(monkeypatch):
    """A limit below the sample's tables, so that the sample stands for a state."""
    monkeypatch.setattr(exports, "LARGE_EXPORT_MAX_ROWS", 5)


def test_the_sample_writes_every_export_below_the_limit(tmp_path, run_cli):
    code, out, err = run_cli("run", SAMPLE, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    assert all((tmp_path / "out" / name).exists() for name in LARGE_FILES) and "not written" not in out


def test_above_the_limit_the_large_exports_wait_for_pound_export_and_equal_a_builds(tmp_path, run_cli, small_limit):
    code, out, err = run_cli("run", SAMPLE, "--out", tmp_path / "all", "--as-of", "2026-11-30", "--exports", "all")
    assert code == 0, err
    assert all((tmp_path / "all" / name).exists() for name in LARGE_FILES)

    code, out, err = run_cli("run", SAMPLE, "--out", tmp_path / "auto", "--as-of", "2026-11-30")
    assert code == 0, err
    written = sorted(p.name for p in (tmp_path / "auto").glob("*.csv"))
    assert not set(LARGE_FILES) & set(written) and "findings.csv" in written and "monthly_accounts.csv" in written
    said = next(line for line in out.splitlines() if line.startswith("not written"))
    assert "fund_movements.csv (" in said and "pound export --db" in said and "--exports all" in said

    code, _, err = run_cli("export", "--db", tmp_path / "auto" / "pound.duckdb", "--out", tmp_path / "tables",
                           "--format", "csv")
    assert code == 0, err
    for table in exports.LARGE_EXPORTS:
        spec = exports.BY_TABLE[table]
        built = _rows(tmp_path / "all" / f"{spec.name}.csv")
        exported = _rows(tmp_path / "tables" / f"{table}.csv")
        assert built and len(built) == len(exported), table
        columns = list(built[0])
        # the build writes money as rupees, pound export as paise: the same values
        as_built = sorted(tuple(_paise(r[c]) if c in spec.money else r[c] for c in columns) for r in built)
        as_exported = sorted(tuple(r[c] for c in columns) for r in exported)
        assert as_built == as_exported, table


def test_a_build_that_leaves_them_out_drops_an_earlier_runs(tmp_path, run_cli, monkeypatch, shared):
    shared.run(SAMPLE, "2026-11-30", tmp_path / "out")       # a copy of the session's `pound run` of the sample
    assert all((tmp_path / "out" / name).exists() for name in LARGE_FILES)
    monkeypatch.setattr(exports, "LARGE_EXPORT_MAX_ROWS", 5)
    code, out, err = run_cli("build", "--db", tmp_path / "out" / "pound.duckdb", "--out", tmp_path / "out",
                             "--as-of", "2026-11-30")
    assert code == 0, err
    # an earlier run's files would not match this build's figures: none is left beside them
    assert not any((tmp_path / "out" / name).exists() for name in LARGE_FILES)
    code, out, err = run_cli("build", "--db", tmp_path / "out" / "pound.duckdb", "--out", tmp_path / "out",
                             "--as-of", "2026-11-30", "--exports", "all")
    assert code == 0, err
    assert all((tmp_path / "out" / name).exists() for name in LARGE_FILES) and "not written" not in out
