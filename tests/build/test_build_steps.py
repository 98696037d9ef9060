"""What the build keeps between runs (pipeline/build/memo.py) and the build of only what one
table needs (`build(..., upto=...)`): neither may change a figure."""

from __future__ import annotations

import json
import os

import pytest
import shared
from helpers import built, built_into, built_rows, rows
from shared import GOLDEN

from pipeline.build import build, memo, models, needed_by
from pipeline.build.models import tables_read
from pipeline.core.params import Parameters

AS_OF = "2026-12-31"


@pytest.fixture
def fresh_memo(tmp_path, monkeypatch):
    """An empty memo folder, and nothing remembered in this process."""
    folder = tmp_path / "memo"
    monkeypatch.setenv("POUND_CACHE_DIR", str(folder))
    for m in (memo.KINDS, memo.READS):
        monkeypatch.setattr(m, "_data", None)
        monkeypatch.setattr(m, "_added", False)
    tables_read.cache_clear()
    yield folder
    tables_read.cache_clear()


def _tables(con) -> dict:
    """Every model table's column types and rows (the registers and `loads` left out; the rows
    without their load times)."""
    names = [n for (n,) in rows(con, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")]
    made = {m.name for m in models() if not m.is_macros}
    out = {}
    for name in sorted(set(names) & made):
        kinds = rows(con, "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? "
                          "ORDER BY column_index", name)
        # a TIMESTAMP column holds when a row was loaded, which differs from one build to the next
        cols = ", ".join(f'"{c}"' for c, kind in kinds if kind != "TIMESTAMP")
        out[name] = (kinds, rows(con, f'SELECT {cols} FROM "{name}" ORDER BY ALL'))
    return out


def test_a_build_that_finds_the_memo_makes_what_a_build_without_it_makes(fresh_memo, tmp_path, monkeypatch):
    import datetime as dt
    import importlib

    models_module = importlib.import_module("pipeline.build.models")   # the module, not build.models()

    first = built_into(tmp_path / "a.duckdb", GOLDEN, dt.date.fromisoformat(AS_OF))
    written = {p.name: json.loads(p.read_text()) for p in fresh_memo.glob("*.json")}
    assert {n.split("-duckdb-")[0] for n in written} == {"hugeint", "reads"}
    kinds = next(v for n, v in written.items() if n.startswith("hugeint"))
    assert any(kinds.values()), "no model was found to make a HUGEINT column"
    # another process: nothing in memory, the file on disk; parsing a model or adding to the
    # memo now fails the test
    for m in (memo.KINDS, memo.READS):
        m._data = None
    tables_read.cache_clear()

    def never(*args, **kwargs):
        raise AssertionError("worked out again, not read from the memo")

    monkeypatch.setattr(models_module, "_parse_reads", never)
    monkeypatch.setattr(memo.KINDS, "put", never)
    monkeypatch.setattr(memo.READS, "put", never)
    second = built_into(tmp_path / "b.duckdb", GOLDEN, dt.date.fromisoformat(AS_OF))
    # everything came from the file: nothing was parsed, described or added
    assert fresh_memo.joinpath(next(iter(written))).exists()
    a, b = _tables(first), _tables(second)
    assert a == b and len(a) > 40
    assert all(kind != "HUGEINT" for cols, _ in a.values() for _, kind in cols)


def test_a_wrong_memo_entry_stops_the_build_naming_the_column(fresh_memo):
    import datetime as dt

    # a column's type does not depend on the rows: the reference set alone makes every model
    built_rows(as_of=dt.date.fromisoformat(AS_OF)).close()
    path = next(fresh_memo.glob("hugeint-*.json"))
    path.write_text(json.dumps({k: [] for k in json.loads(path.read_text())}))   # "no HUGEINT anywhere"
    memo.KINDS._data = None
    with pytest.raises(RuntimeError, match="of type HUGEINT; money and counts must be integers"):
        built_rows(as_of=dt.date.fromisoformat(AS_OF))


def test_a_source_column_of_another_type_is_not_answered_from_the_memo(fresh_memo):
    import datetime as dt

    from pipeline.build import _fingerprint

    con = built(GOLDEN, dt.date.fromisoformat(AS_OF))
    steps = models()
    before = _fingerprint(con, "", steps)
    con.execute("ALTER TABLE releases ALTER COLUMN fines_paid TYPE HUGEINT")
    assert _fingerprint(con, "", steps) != before
    assert _fingerprint(con, "-- another macro", steps) != _fingerprint(con, "", steps)


def test_upto_builds_what_the_findings_need_and_they_equal_a_whole_builds():
    import datetime as dt

    whole = built(GOLDEN, dt.date.fromisoformat(AS_OF))
    part = built(GOLDEN, dt.date.fromisoformat(AS_OF))
    # every model dropped: only the registers and what was loaded are left
    for m in models():
        if not m.is_macros:
            part.execute(f"DROP {'VIEW' if m.is_view else 'TABLE'} IF EXISTS {m.name}")
    build(part, Parameters(as_of=dt.date.fromisoformat(AS_OF)), upto="findings")
    made = {n for (n,) in rows(part, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")}
    needed = {m.name for m in needed_by(models(), ("findings",)) if not m.is_macros}
    assert "findings" in needed and "reconciliation" not in needed and "fund_movements" not in needed
    assert "reconciliation" not in made and "fund_movements" not in made
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
    made = {m.name for m in models() if m.is_view}
    assert set(views) == made and views
    counts = {view: rows(con, f"SELECT count(*) FROM {view}")[0][0] for view in views}
    assert counts["stg_dated_rows"] > 0, counts


def test_a_memo_grown_past_its_limit_keeps_only_what_was_used(fresh_memo, monkeypatch):
    m = memo.Memo("trial")
    monkeypatch.setattr(memo, "KEEP_AT_MOST", 5)
    for i in range(4):
        m.put(f"old{i}", i)
    m.save()
    later = memo.Memo("trial")                  # another run: reads two old entries, adds two
    assert later.get("old1") == 1 and later.get("old3") == 3
    later.put("new1", "a")
    later.save()
    assert json.loads(later.path.read_text()) == {f"old{i}": i for i in range(4)} | {"new1": "a"}
    later.put("new2", "b")                      # six entries: past the limit
    later.save()
    assert json.loads(later.path.read_text()) == {"old1": 1, "old3": 3, "new1": "a", "new2": "b"}


def test_two_threads_that_ask_the_memo_at_once_keep_both_entries(fresh_memo, monkeypatch):
    """The build's two connections ask the memo from two threads: the file is read once and what
    each thread puts is kept (each read a copy of its own, and the slower read's copy won)."""
    import threading
    import time
    from pathlib import Path

    seed = memo.Memo("trial")
    seed.put("old", 0)
    seed.save()
    m = memo.Memo("trial")
    read_text = Path.read_text

    def slow_read(path, *args, **kwargs):
        time.sleep(0.05 if threading.current_thread().name == "quick" else 0.3)
        return read_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", slow_read)
    threads = [threading.Thread(target=m.put, args=(name, 1), name=name) for name in ("quick", "slow")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.setattr(Path, "read_text", read_text)
    m.save()
    assert json.loads(m.path.read_text()) == {"old": 0, "quick": 1, "slow": 1}


_BUILD_IN_A_NEW_PROCESS = """
import sys, datetime as dt
sys.path.insert(0, sys.argv[1])
from helpers import database
from pipeline.build import build
from pipeline.core.params import Parameters
build(database(), Parameters({}, as_of=dt.date(2026, 12, 31)))
"""


def test_a_second_process_finds_what_the_first_kept(tmp_path):
    """The memo's keys are the same in every process (a key holding a memory address, or a set in
    the order of the process's string hashing, would make every run work everything out again and
    add to the file): the second build, in another process with another hash seed, adds nothing."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = tmp_path / "memo"
    tests = str(Path(__file__).resolve().parent.parent)

    def run(seed: str) -> dict:
        env = {**os.environ, "POUND_CACHE_DIR": str(folder), "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", _BUILD_IN_A_NEW_PROCESS, tests], env=env, check=True)
        return {p.name: (p.stat().st_mtime_ns, p.read_text()) for p in folder.glob("*.json")}

    first = run("1")
    assert {n.split("-duckdb-")[0] for n in first} == {"hugeint", "reads"}
    assert run("2") == first, "the second process did not find the first one's entries"


def test_two_connections_make_what_one_makes(tmp_path, monkeypatch):
    """The golden bundle built on one connection with every DuckDB optimizer, then on two at once
    (schedule.py) with the small database's light planning (load/db.py): every model the same,
    column types and rows."""
    import datetime as dt

    import pipeline.build as build_module
    from pipeline.build import schedule
    from pipeline.load import db

    as_of = dt.date.fromisoformat(AS_OF)
    monkeypatch.delenv("POUND_BUILD_CONNECTIONS", raising=False)
    monkeypatch.delenv("POUND_THREADS", raising=False)
    monkeypatch.setattr(build_module, "workers", lambda con: 1)
    with monkeypatch.context() as every_optimizer:
        every_optimizer.setattr(db, "LIGHT_PLANNING", ())
        one = _tables(built_into(tmp_path / "one.duckdb", GOLDEN, as_of))
    seen: list[int] = []
    monkeypatch.setattr(build_module, "workers", lambda con: seen.append(schedule.workers(con)) or 2)
    threads: list[int] = []
    make_in_order = build_module.make_in_order

    planned: list[str] = []

    def spy(steps, connections, *args):
        threads.append(connections[0].execute("SELECT current_setting('threads')").fetchone()[0])
        planned.append(connections[1].execute("SELECT current_setting('disabled_optimizers')").fetchone()[0])
        return make_in_order(steps, connections, *args)

    monkeypatch.setattr(build_module, "make_in_order", spy)
    con = built_into(tmp_path / "two.duckdb", GOLDEN, as_of)
    assert threads == [1], "each of the two connections on one DuckDB thread (load/db.py one_thread)"
    assert [set(p.split(",")) for p in planned] == [set(db.LIGHT_PLANNING)], "light planning on both connections"
    assert con.execute("SELECT current_setting('disabled_optimizers')").fetchone() == ("",), "given back"
    assert con.execute("SELECT current_setting('threads')").fetchone()[0] != 1 or (os.cpu_count() or 1) == 1
    two = _tables(con)
    assert seen == [2], "the golden bundle is a small database: two connections by default"
    assert one == two and len(one) > 40


def test_a_model_waits_for_what_the_macros_before_it_read():
    """intermediate/_macros.sql looks up the notifications and the rates: every model after it
    waits for the staging models it reads, though its own SQL names neither."""
    from pipeline.build import schedule

    steps = models()
    macro = next(m for m in steps if m.is_macros and m.layer == "intermediate")
    assert {"stg_notifications", "stg_rate_rows"} <= set(macro.reads)
    needs = schedule.waits_for(steps)
    for name in ("int_cases", "case_accounts", "findings"):
        waits, macros = needs[name]
        assert {"stg_notifications", "stg_rate_rows"} <= waits, name
        assert macro in macros, name
    assert needs["stg_impoundments"][1] == [] and "stg_notifications" not in needs["stg_impoundments"][0]


def test_the_first_failure_stops_the_build_and_is_named(monkeypatch):
    """On two connections, a model that fails stops the build with its file named; nothing that
    reads it is made."""
    import duckdb as _duckdb

    from pipeline.build import schedule

    steps = [m for m in models() if not m.is_macros][:6]
    made: list[str] = []

    def make(con, m):
        if m is steps[1]:
            raise RuntimeError(f"model {m.layer}/{m.name}.sql failed: broken")
        made.append(m.name)

    cons = [_duckdb.connect(), _duckdb.connect()]
    with pytest.raises(RuntimeError, match=f"{steps[1].name}.sql failed"):
        schedule.make_in_order(steps, cons, make, lambda m: None)
    needs = schedule.waits_for(steps)
    assert not any(steps[1].name in needs[n][0] for n in made)


def test_the_number_of_connections(monkeypatch):
    """Two on a small database, one on a large one, or what POUND_BUILD_CONNECTIONS says."""
    import duckdb as _duckdb

    from pipeline.build import schedule

    monkeypatch.delenv("POUND_BUILD_CONNECTIONS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    con = _duckdb.connect()
    con.execute("CREATE TABLE impoundments AS SELECT range AS case_id FROM range(?)", [schedule.SMALL_DATABASE_ROWS])
    assert schedule.workers(con) == 2
    con.execute("INSERT INTO impoundments VALUES (-1)")
    assert schedule.workers(con) == 1
    monkeypatch.setenv("POUND_BUILD_CONNECTIONS", "3")
    assert schedule.workers(con) == 3
    monkeypatch.delenv("POUND_BUILD_CONNECTIONS")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    con.execute("DELETE FROM impoundments")
    assert schedule.workers(con) == 1


def test_the_callers_connection_ends_with_every_macro():
    """A macro file run only on the other connection (every model after it was made there) is
    run on the caller's connection too before the build returns: its macros are TEMP, and the
    caller goes on with them (synth looks up rates with security_rate)."""
    import time
    from pathlib import Path

    import duckdb as _duckdb

    from pipeline.build import schedule
    from pipeline.build.models import Model

    steps = [Model("stg_a", "staging", Path("a"), "SELECT 1"), Model("stg_b", "staging", Path("b"), "SELECT 2"),
             Model("_macros", "intermediate", Path("m"), "CREATE OR REPLACE TEMP MACRO plus_one(x) AS x + 1",
                   frozenset({"stg_b"})),
             Model("int_x", "intermediate", Path("x"), "SELECT 3", frozenset({"stg_b"}))]
    first, other = _duckdb.connect(), _duckdb.connect()
    where: dict[str, object] = {}

    def make(con, m):
        where[m.name] = con
        if m.name == "stg_b":
            time.sleep(0.5)           # the first connection is busy; the other one is free first

    schedule.make_in_order(steps, [first, other], make, lambda m: None)
    assert where["stg_b"] is first and where["int_x"] is other
    assert first.execute("SELECT plus_one(1)").fetchone() == (2,)


def test_of_the_models_ready_at_once_the_one_more_wait_for_goes_first():
    """On two connections the findings (one statement of thirty rules, the longest of a small
    build) starts as soon as what it reads is made, before models nothing or little waits for."""
    from pathlib import Path

    import duckdb as _duckdb

    from pipeline.build import schedule
    from pipeline.build.models import Model

    after = schedule._waited_for_by(schedule.waits_for(models()))
    assert {"review_log", "doc_findings_memos"} <= after["findings"]
    assert "findings" in after["case_accounts"] and after["stg_impoundments"] >= after["case_accounts"]
    # a, then b and c ready together: c is waited for by d, so c starts before b
    steps = [Model("a", "staging", Path("a"), ""), Model("b", "intermediate", Path("b"), "", frozenset({"a"})),
             Model("c", "intermediate", Path("c"), "", frozenset({"a"})),
             Model("d", "marts", Path("d"), "", frozenset({"c"}))]
    started: list[str] = []
    schedule.make_in_order(steps, [_duckdb.connect()], lambda con, m: None, lambda m: started.append(m.name))
    assert started == ["a", "c", "b", "d"]


def test_a_failed_build_on_one_connection_leaves_the_tables_as_they_were(monkeypatch):
    """On a small database built on one connection, the build is one transaction: when a late
    model fails, the models made before it are given back as they were before the build."""
    import helpers

    import pipeline.build as build_module

    con = built(GOLDEN)
    first = "stg_impoundments"
    assert not next(m for m in models() if m.name == first).is_view
    (count,) = con.execute(f"SELECT count(*) FROM {first}").fetchone()
    assert count > 1
    con.execute(f"DELETE FROM {first} WHERE rowid = (SELECT min(rowid) FROM {first})")
    plain_select = build_module._plain_select

    def broken(c, m, fingerprint):
        return "SELECT error('broken')" if m.name == "findings" else plain_select(c, m, fingerprint)

    monkeypatch.setenv("POUND_BUILD_CONNECTIONS", "1")
    monkeypatch.setattr(build_module, "_plain_select", broken)
    with pytest.raises(RuntimeError, match="rules/\\*.sql failed"):
        build(con, Parameters({}, as_of=helpers.AS_OF))
    assert con.execute(f"SELECT count(*) FROM {first}").fetchone() == (count - 1,)
