"""The whole command is whole (issue 39, item 8): `pound build` and `pound run` killed at any point,
exports included, leave the database and the exports of one build: as before, or as after.

The earlier set is a run of the golden bundle as of 30-11-2026; the new build is as of 31-10-2026,
whose figures differ (parameters.toml names its as-of date, and so does the database). Killed
before the build commits, both stay as before; killed after it (the exports waiting for the
commit, or half moved in), the next command that writes OUT finishes the set, and both are as
after. Compared by content: every export's bytes, and the as-of date of the database's last build.
"""

from __future__ import annotations

import shutil

import duckdb
import pytest
from helpers import pound_process as _pound
from shared import GOLDEN

AS_OF = "2026-11-30"
NEW = "2026-10-31"


def _exports(out):
    """Each export's content: a CSV's bytes, a workbook's cells (its zip holds the time it was written)."""
    return {p.name: _cells(p) if p.suffix == ".xlsx" else p.read_bytes()
            for p in out.iterdir() if p.is_file() and p.name != "pound.duckdb"}


def _cells(path):
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True)
    try:
        return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets}
    finally:
        wb.close()


def _db_as_of(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return str(con.execute("SELECT as_of FROM builds ORDER BY build_id DESC LIMIT 1").fetchone()[0])
    finally:
        con.close()


@pytest.fixture(scope="session")
def uninterrupted(shared):
    """The set an uninterrupted `pound build` as of NEW writes over a copy of the earlier set, made once
    a session (tests/shared.py; read only): every test compares with the same one."""
    def make(folder):
        after = folder / "after"
        shutil.copytree(shared.run_folder(GOLDEN, AS_OF), after)
        res = _pound("build", "--db", after / "pound.duckdb", "--out", after, "--as-of", NEW)
        assert res.returncode == 0, res.stderr

    return shared.once("killed-whole-uninterrupted", make) / "after"


@pytest.fixture
def sets(tmp_path, golden_bundle, shared, uninterrupted):
    """(the earlier set, its exports, the exports an uninterrupted build as of NEW writes)."""
    earlier = shared.run(golden_bundle, AS_OF, tmp_path / "out")
    return earlier, _exports(earlier), _exports(uninterrupted)


@pytest.mark.parametrize("point, outcome", [("build:exports-written", "before"), ("build:committed", "after"),
                                            ("staged:moving", "after")])
def test_a_build_killed_leaves_the_database_and_exports_of_one_build(sets, run_cli, point, outcome):
    out, before, after = sets
    db = out / "pound.duckdb"
    res = _pound("build", "--db", db, "--out", out, "--as-of", NEW, kill_at=point)
    assert res.returncode == -9, res.stderr                 # killed where it was told
    # the next command that writes OUT settles what the killed one left (a report of another folder
    # would not touch it: here, a build that fails at once, on readings that do not exist), run in
    # this process: the process killed is the one before it
    run_cli("build", "--db", db, "--out", out, "--as-of", NEW, "--params", out / "no-such-readings.toml")
    assert _exports(out) == (before if outcome == "before" else after)
    assert _db_as_of(db) == (AS_OF if outcome == "before" else NEW)
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("point", ["build:exports-written", "staged:moving"])
def test_a_run_with_db_elsewhere_killed_leaves_the_database_and_exports_of_one_build(sets, golden_bundle, run_cli,
                                                                                      tmp_path, point):
    out, before, after = sets
    db = tmp_path / "kept" / "pound.duckdb"
    db.parent.mkdir()
    shutil.copyfile(out / "pound.duckdb", db)
    res = _pound("run", golden_bundle, "--out", out, "--db", db, "--as-of", NEW, kill_at=point)
    assert res.returncode == -9, res.stderr
    # the next command, run in this process, fails at once (no such readings) and settles what was left
    code, _, _ = run_cli("run", golden_bundle, "--out", out, "--db", db, "--as-of", NEW, "--params", out / "none.toml")
    assert code != 0
    if point == "build:exports-written":
        assert _exports(out) == before and _db_as_of(db) == AS_OF
    else:          # killed while moving the set in: the next command moves the rest, the database with it
        assert _exports(out) == after and _db_as_of(db) == NEW
    assert [p.name for p in db.parent.iterdir()] == ["pound.duckdb"]
