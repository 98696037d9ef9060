"""pound documents --month: the papers of a month from the month's own accounts, built first (and
said so) when the database's last build is of another day."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_papers_of_a_month_are_made_from_its_own_build(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("POUND_TODAY", "2026-12-06")
    bundle = tmp_path / "mysuru"
    shutil.copytree(ROOT / "data" / "sample", bundle)
    db = tmp_path / "pound.duckdb"
    assert run_cli("ingest", bundle, "--db", db)[0] == 0
    assert run_cli("build", "--db", db, "--out", tmp_path / "dec", "--as-of", "2026-12-06")[0] == 0
    code, out, err = run_cli("documents", "--db", db, "--out", tmp_path / "p11", "--month", "2026-11")
    assert code == 0, err
    assert ("built the accounts as of 30-11-2026 for 2026-11 first: the database was last built as of 06-12-2026 "
            f"(its exports in {tmp_path / 'month_2026-11' / 'exports'})") in err
    assert out.startswith("wrote 8 papers")        # with a receipt for security deposited (s.13)
    assert "30-11-2026" in (tmp_path / "p11" / "index.html").read_text(encoding="utf-8")
    # its twin: the month's own build in place, nothing is built again
    code, out, err = run_cli("documents", "--db", db, "--out", tmp_path / "p11b", "--month", "2026-11")
    assert code == 0 and "built the accounts" not in err and out.startswith("wrote 8 papers")
    # a month still running says so
    code, out, err = run_cli("documents", "--db", db, "--out", tmp_path / "p12", "--month", "2026-12")
    assert code == 0 and "note: 2026-12 is not over" in err and "as of 06-12-2026 for 2026-12 first" in err


def test_month_and_dates_together_are_refused(run_cli, tmp_path):
    code, _, err = run_cli("documents", "--db", tmp_path / "x.duckdb", "--out", tmp_path / "p", "--month", "2026-11",
                           "--from", "2026-11-01")
    assert code == 1 and "give --month, or --from and --to, not both" in err
