"""make bench's one-month split: the files a pound sends at the end of a month, cut from a bundle."""

from __future__ import annotations

import csv
from pathlib import Path

from pipeline.tools.bench import SAMPLE, rejected_sample, split_month


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_split_month_moves_exactly_that_months_rows(tmp_path, run_cli):
    bundle, before, month = tmp_path / "synth", tmp_path / "before", tmp_path / "month"
    code, _, err = run_cli("synth", "--out", bundle, "--pounds", 2, "--months", 3, "--cases-per-month", 6,
                           "--seed", 3, "--start", "2025-10")
    assert code == 0, err
    moved = split_month(bundle, before, month, "2025-12")
    assert moved > 0
    sent = sorted(month.rglob("*.csv"))
    assert sum(len(_rows(p)) for p in sent) == moved
    for part in sent:
        original = bundle / part.parent.name / (part.stem.removesuffix("_2025-12") + ".csv")
        rest = before / part.parent.name / original.name
        kept, out, whole = _rows(rest), _rows(part), _rows(original)
        assert len(kept) + len(out) == len(whole)
        assert sorted(map(str, kept + out)) == sorted(map(str, whole))   # nothing lost, nothing changed
        dates = [c for c in whole[0] if c.endswith("_on")]
        assert all(any(r[c].startswith("2025-12") for c in dates) for r in out)
    # a register with no row in the month keeps its file whole and sends none
    assert not (month / "reference").exists()


def test_the_rejected_sample_differs_by_one_cell(tmp_path):
    bad = rejected_sample(tmp_path / "bad")
    new, old = _rows(bad / "registers" / "releases.csv"), _rows(SAMPLE / "registers" / "releases.csv")
    changed = [(c, a[c], b[c]) for a, b in zip(old, new, strict=True) for c in a if a[c] != b[c]]
    assert changed == [("fines_paid", old[0]["fines_paid"], "six hundred")]


def test_help_says_what_the_bench_does_and_touches_nothing(tmp_path, monkeypatch, capsys):
    from pipeline.tools import bench

    monkeypatch.setattr(bench, "main", lambda: (_ for _ in ()).throw(AssertionError("the bench ran")))
    assert bench.cli(["--help"]) == 0
    out = capsys.readouterr().out
    assert "make bench" in out and "BENCH_SCALE=small" in out and "bench-out" in out
    assert bench.cli(["--fast"]) == 2
    assert "no option '--fast'" in capsys.readouterr().err


def test_the_write_floor_writes_every_finished_table_and_each_exports_rows(shared, sample_bundle, tmp_path):
    """What `make bench` gives as the least a run keeping these outputs can take: the finished
    tables as they stand in a new database file, and each export's table as a CSV file."""
    import duckdb

    from pipeline.outputs.exports import EXPORTS
    from pipeline.outputs.tables import finished_tables
    from pipeline.tools import bench

    db = shared.run_folder(sample_bundle, "2026-11-30") / "pound.duckdb"
    assert bench.cli(["write", str(db), str(tmp_path / "w")]) == 0
    src = duckdb.connect(str(db), read_only=True)
    new = duckdb.connect(str(tmp_path / "w" / "pound.duckdb"), read_only=True)
    try:
        copied = {r[0] for r in new.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        assert copied == set(finished_tables())
        for table in finished_tables():
            assert new.execute(f"SELECT count(*) FROM {table}").fetchone() == \
                src.execute(f"SELECT count(*) FROM {table}").fetchone(), table
        for spec in EXPORTS:
            with (tmp_path / "w" / f"{spec.name}.csv").open(encoding="utf-8", newline="") as fh:
                assert sum(1 for _ in csv.reader(fh)) == 1 + src.execute(f"SELECT count(*) FROM {spec.table}").fetchone()[0]
    finally:
        src.close()
        new.close()


def test_the_audit_workbook_written_through_openpyxl_holds_what_xlsx_writes(shared, sample_bundle, tmp_path):
    """make bench weighs outputs/xlsx.py against openpyxl writing the same workbook: the two must hold
    the same sheets and cells, or the bench weighs two different things (and a change of the
    writer's calls, e.g. a row height, must reach the openpyxl twin too)."""
    from openpyxl import load_workbook

    from pipeline.tools import bench

    db = shared.run_folder(sample_bundle, "2026-11-30") / "pound.duckdb"
    for way in ("xlsx", "openpyxl"):
        assert bench.cli([f"workbook-{way}", str(db), str(tmp_path / f"{way}.xlsx")]) == 0
    ours, theirs = (load_workbook(tmp_path / f"{w}.xlsx", read_only=True) for w in ("xlsx", "openpyxl"))
    assert ours.sheetnames == theirs.sheetnames
    for name in ours.sheetnames:
        assert list(ours[name].iter_rows(values_only=True)) == list(theirs[name].iter_rows(values_only=True)), name
