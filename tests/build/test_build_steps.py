"""The build (pipeline/build/__init__.py): whole or not at all, exact types, and the build of
only what one table needs (`build(..., upto=...)`), which may not change a figure."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import shared
from helpers import built, rows, snapshot
from shared import GOLDEN

import pipeline.build as build_module
from pipeline.build import build, build_order, needed_by
from pipeline.build.models import Model
from pipeline.core.params import Parameters
from pipeline.load import connection

pytestmark = pytest.mark.xdist_group("build_steps")     # one test process: the golden bundle built before and after once, not once in each test process

AS_OF = "2026-12-31"
BEFORE, AFTER = dt.date(2026, 11, 30), dt.date(2026, 12, 31)


def _contents(con) -> dict:
    """Every row of every table, and every view's definition: the database as far as a reader can tell."""
    views = rows(con, "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
                      "AND database_name = current_database() ORDER BY 1")    # not the build's own (TEMP)
    tables = snapshot(con)
    # a build's record holds the clock's time: compared without it (its id, as-of date and loads stay)
    tables["builds"] = [r[:1] + r[2:] for r in tables.get("builds", [])]
    return {"tables": tables, "views": views}


@pytest.fixture(scope="module")
def before_and_after(tmp_path_factory):
    """The golden bundle built as of 30 November (the file a later build starts from), and the
    contents of that database and of the same one built again as of 31 December."""
    folder = tmp_path_factory.mktemp("whole")
    start = folder / "before.duckdb"
    shutil.copyfile(shared.SESSION.built_file(GOLDEN, BEFORE, None), start)
    con = connection.connect(start)
    before = _contents(con)
    con.close()
    again = folder / "after.duckdb"
    shutil.copyfile(start, again)
    con = connection.connect(again)
    build(con, Parameters({}, as_of=AFTER))
    after = _contents(con)
    con.close()
    changed = [t for t in after["tables"] if before["tables"].get(t) != after["tables"][t]]
    assert len(changed) > 20, "the later build changes most tables: a mixed database would show"
    return start, before, after


def _copy(start: Path, tmp_path: Path) -> Path:
    path = tmp_path / "pound.duckdb"
    shutil.copyfile(start, path)
    return path


def test_a_model_that_fails_leaves_every_table_as_it_was(before_and_after, tmp_path, monkeypatch):
    """The model list with a failing model put in late (after the findings, before the marts):
    the build stops naming it, and every table and view is as before the build, by content."""
    start, before, _ = before_and_after
    real = build_module.all_models

    def with_a_broken_one(findings=None):
        steps = real(findings)
        at = next(i for i, m in enumerate(steps) if m.layer == "marts")
        return [*steps[:at], Model("broken", "reconcile", Path("broken.sql"), "SELECT error('broken')"), *steps[at:]]

    monkeypatch.setattr(build_module, "all_models", with_a_broken_one)
    con = connection.connect(_copy(start, tmp_path))
    with pytest.raises(RuntimeError, match="reconcile/broken.sql failed"):
        build(con, Parameters({}, as_of=AFTER))
    assert _contents(con) == before
    con.close()


def test_a_failed_check_after_the_models_leaves_every_table_as_it_was(before_and_after, tmp_path, monkeypatch):
    """The roll-forward checks run inside the build's transaction: one that fails gives back the
    tables the models had replaced."""
    start, before, _ = before_and_after

    def fails(con):
        raise RuntimeError("the head-count roll-forward does not balance")

    monkeypatch.setattr(build_module, "_check_rollforward", fails)
    con = connection.connect(_copy(start, tmp_path))
    with pytest.raises(RuntimeError, match="roll-forward"):
        build(con, Parameters({}, as_of=AFTER), first=lambda c: c.execute("DELETE FROM closes"))
    assert _contents(con) == before
    con.close()


# A build as of 31 December in a process of its own, killed with SIGKILL at the point argv[3]
# names: after the Nth model ("model:N"), just before COMMIT, just after it, or never.
_KILLED_BUILD = """
import os, signal, sys, datetime as dt
import pipeline.build as b
from pipeline.core.params import Parameters
from pipeline.load import connection

path, point = sys.argv[1], sys.argv[2]
made = []
real_make = b._make

def make(con, m, was):
    real_make(con, m, was)
    made.append(m.name)
    if point == f"model:{len(made)}":
        os.kill(os.getpid(), signal.SIGKILL)

class Killed:
    def __init__(self, con):
        self.con = con
    def execute(self, sql, *args):
        if sql == "COMMIT" and point == "before-commit":
            os.kill(os.getpid(), signal.SIGKILL)
        out = self.con.execute(sql, *args)
        if sql == "COMMIT" and point == "after-commit":
            os.kill(os.getpid(), signal.SIGKILL)
        return out
    def __getattr__(self, name):
        return getattr(self.con, name)

b._make = make
con = connection.connect(path)
b.build(Killed(con), Parameters({}, as_of=dt.date(2026, 12, 31)))
con.close()
"""


def _killed_build(path: Path, point: str, after_seconds: float | None = None) -> int:
    """The build in its own process, killed at `point` (or, with `after_seconds`, from outside at
    that time); returns its exit status."""
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_BUILD, str(path), point],
                            env={**os.environ, "POUND_QUIET": "1"}, stderr=subprocess.PIPE)
    if after_seconds is not None:
        try:
            proc.wait(after_seconds)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
    proc.wait(120)
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.read().decode()
    return proc.returncode


def test_a_build_killed_at_any_point_leaves_the_database_as_before_or_as_after(before_and_after, tmp_path):
    """kill -9 after the first model, half-way, after the last, just before and just after the
    commit, and from outside at a quarter, a half and three quarters of the build's time: the
    database is then, table by table and row by row, wholly as before or wholly as after."""
    import time

    start, before, after = before_and_after
    n = len([m for m in build_order() if not m.is_macros])
    (tmp_path / "timed").mkdir()
    timed = _copy(start, tmp_path / "timed")
    t0 = time.perf_counter()
    assert _killed_build(timed, "never") == 0
    whole = time.perf_counter() - t0
    points = [("model:1", None), (f"model:{n // 2}", None), (f"model:{n}", None), ("before-commit", None),
              ("after-commit", None)] + [(f"at {f}", whole * f) for f in (0.25, 0.5, 0.75)]
    seen = {}
    for i, (point, seconds) in enumerate(points):
        (tmp_path / str(i)).mkdir()
        path = _copy(start, tmp_path / str(i))
        status = _killed_build(path, point, seconds)
        con = connection.connect(path)
        got = _contents(con)
        con.close()
        assert got in (before, after), f"killed at {point}: a mixed database"
        seen[point] = ("after" if got == after else "before", status)
    assert [seen[p][0] for p, _ in points[:5]] == ["before"] * 4 + ["after"], seen
    assert all(status == -signal.SIGKILL for p, (_, status) in seen.items() if not p.startswith("at ")), seen


def test_no_model_makes_a_hugeint_or_a_floating_point_column(tmp_path, monkeypatch):
    """DuckDB's sums are HUGEINT; the build makes them BIGINT as it makes each table, from the
    manifest's list (build._cast), and a model that made a DOUBLE would stop it. A model the
    manifest does not hold has its types read off the catalogue (build._made_exact), and one whose
    entry is stale is put right at the end: the finished tables hold neither kind."""
    start = tmp_path / "pound.duckdb"
    shutil.copyfile(shared.SESSION.built_file(GOLDEN, BEFORE, None), start)
    real_cast, real_models = build_module._cast, build_module.all_models
    cast: list[tuple[str, ...]] = []

    def spy(sql, huge):
        cast.append(tuple(huge))
        return real_cast(sql, huge)

    unheld = Model("stg_unheld", "staging", Path("stg_unheld.sql"), "SELECT sum(1) AS n")
    stale = Model("stg_stale", "staging", Path("stg_stale.sql"), "SELECT sum(2) AS n", casts=())
    monkeypatch.setattr(build_module, "_cast", spy)
    monkeypatch.setattr(build_module, "all_models", lambda findings=None: [unheld, stale, *real_models(findings)])
    con = connection.connect(start)
    build(con, Parameters({}, as_of=AFTER))
    assert any("feeding_due" in c for c in cast), "case_accounts sums into HUGEINTs, which the build casts"
    made = {m.name for m in build_order() if not m.is_macros} | {"stg_unheld", "stg_stale"}
    kinds = rows(con, "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main'")
    bad = [k for k in kinds if k[0] in made and (k[2] in ("HUGEINT", "DOUBLE", "FLOAT") or k[2].startswith("DECIMAL"))]
    assert not bad and {k[0] for k in kinds} >= made
    assert ("stg_unheld", "n", "BIGINT") in kinds and ("stg_stale", "n", "BIGINT") in kinds
    con.close()


def test_a_model_that_makes_a_floating_point_column_stops_the_build_naming_it(tmp_path, monkeypatch):
    start = tmp_path / "pound.duckdb"
    shutil.copyfile(shared.SESSION.built_file(GOLDEN, BEFORE, None), start)
    real = build_module.all_models
    inexact = Model("stg_inexact", "staging", Path("stg_inexact.sql"), "SELECT 1.5::DOUBLE AS fee")
    monkeypatch.setattr(build_module, "all_models", lambda findings=None: [inexact, *real(findings)])
    con = connection.connect(start)
    with pytest.raises(RuntimeError, match="model stg_inexact made column fee of type DOUBLE"):
        build(con, Parameters({}, as_of=AFTER))
    con.close()


def test_upto_builds_what_the_findings_need_and_they_equal_a_whole_builds():
    import datetime as dt

    whole = built(GOLDEN, dt.date.fromisoformat(AS_OF))
    part = built(GOLDEN, dt.date.fromisoformat(AS_OF))
    # every model dropped: only the registers and what was loaded are left
    for m in build_order():
        if not m.is_macros:
            part.execute(f"DROP {'VIEW' if m.is_view else 'TABLE'} IF EXISTS {m.name}")
    build(part, Parameters(as_of=dt.date.fromisoformat(AS_OF)), upto="findings")
    made = {n for (n,) in rows(part, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")}
    needed = {m.name for m in needed_by(build_order(), ("findings",)) if not m.is_macros}
    # the overdue-credit rules (R16, R17) read the money the Act sends to the ledgers, not the reconciliation
    assert "findings" in needed and "credit_arrivals" in needed and "reconciliation" not in needed
    assert "reconciliation" not in made and "credit_arrivals" in made
    sql = "SELECT * FROM findings ORDER BY ALL"
    assert rows(part, sql) == rows(whole, sql) and len(rows(whole, sql)) > 5


def test_every_view_the_build_makes_can_be_read_by_a_later_command():
    """A view is computed where it is read: it must not lean on what only the building session
    has (the as-of date and the parameters are variables of that session, as_of() a TEMP macro)."""
    import datetime as dt

    import duckdb

    path = shared.SESSION.built_file(GOLDEN, dt.date.fromisoformat(AS_OF), None)
    con = duckdb.connect(str(path), read_only=True)
    views = [v for (v,) in rows(con, "SELECT view_name FROM duckdb_views() WHERE NOT internal")]
    made = {m.name for m in build_order() if m.is_view and not m.is_temporary}
    assert set(views) == made and views
    counts = {view: rows(con, f"SELECT count(*) FROM {view}")[0][0] for view in views}
    assert counts["stg_dated_rows"] > 0 and counts["case_heads_held"] > 0, counts


def test_a_view_of_the_build_is_not_kept_and_a_table_an_older_build_kept_under_its_name_is_dropped(tmp_path, monkeypatch):
    """A view of the build (`-- made as: view of the build`) is the building connection's alone.
    A database built before its model was one holds it as a table: the build drops that table, so
    that no later command reads rows of an earlier build under its name; a build that fails gives
    it back."""
    import duckdb

    temporary = {m.name for m in build_order() if m.is_temporary}
    assert {"stg_impoundments", "stg_releases", "stg_local_fund", "stg_sales"} <= temporary
    path = tmp_path / "pound.duckdb"
    shutil.copy(shared.SESSION.built_file(GOLDEN, dt.date.fromisoformat(AS_OF), None), path)
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE stg_releases AS SELECT 'stale' AS release_id")     # as an older build kept it
    con.close()
    # a build that fails after dropping it gives it back, with the rest
    real = build_module.all_models
    monkeypatch.setattr(build_module, "all_models", lambda findings=None: [
        *real(findings), Model("broken", "marts", Path("broken.sql"), "SELECT error('broken')")])
    con = connection.connect(path)
    with pytest.raises(RuntimeError, match="broken.sql failed"):
        build(con, Parameters(as_of=dt.date.fromisoformat(AS_OF)))
    assert rows(con, "SELECT * FROM stg_releases") == [("stale",)]
    monkeypatch.setattr(build_module, "all_models", real)
    build(con, Parameters(as_of=dt.date.fromisoformat(AS_OF)))
    # in the building connection the view is there, with the releases as of the date
    assert rows(con, "SELECT count(*) FROM stg_releases")[0][0] > 0
    con.close()
    con = duckdb.connect(str(path), read_only=True)
    kept = {t for (t,) in rows(con, "SELECT table_name FROM duckdb_tables() UNION ALL SELECT view_name FROM duckdb_views()")}
    con.close()
    assert not temporary & kept, temporary & kept
