"""Making the models on two connections at once, each model as soon as what it reads is made.

On a small database each model costs DuckDB more to plan than to compute, and one statement
keeps one core busy: a district's build on two connections takes about half the time of one
statement after another. On a large database every statement already uses every core, and two
large models at once would hold both in memory, so there the build keeps to one connection
(`workers`).

What a model waits for: the models its SQL reads, and what the macro files before it read
(a macro that looks up a table is bound to it when it is made). Each connection is given the
run's variables and the macros before its first model; macros are connection-local (TEMP), so a
macro file runs on each connection that needs it, once its tables are made.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import duckdb

from pipeline.build.models import REGISTER_TABLES, Model
from pipeline.load import db

# Up to this many register rows, the build makes models on two connections at once.
SMALL_DATABASE_ROWS = 100_000


def small_database(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the registers hold at most SMALL_DATABASE_ROWS rows."""
    rows = con.execute("SELECT coalesce(sum(estimated_size), 0) FROM duckdb_tables() "
                       "WHERE schema_name = 'main' AND list_contains(?, table_name)",
                       [sorted(REGISTER_TABLES)]).fetchone()[0]
    return rows <= SMALL_DATABASE_ROWS


def workers(con: duckdb.DuckDBPyConnection) -> int:
    """How many connections to build on: two on a small database (when there are two cores), or
    what $POUND_BUILD_CONNECTIONS says (1 on a machine busy with other work: the test suite,
    which already runs two processes, sets it)."""
    chosen = db.chosen_connections()
    if chosen is not None:
        return chosen
    if not db.second_connection():
        return 1
    return 2 if small_database(con) else 1


def waits_for(steps: list[Model]) -> dict[str, tuple[set[str], list[Model]]]:
    """For each model: the models it waits for, and the macro files it needs (those before it)."""
    names = {m.name for m in steps if not m.is_macros}
    out: dict[str, tuple[set[str], list[Model]]] = {}
    macros: list[Model] = []
    for m in steps:
        if m.is_macros:
            macros.append(m)
            continue
        reads = set(m.reads).union(*(mac.reads for mac in macros))
        out[m.name] = ((reads & names) - {m.name}, list(macros))
    return out


def _waited_for_by(needs: dict[str, tuple[set[str], list[Model]]]) -> dict[str, set[str]]:
    """For each model, the models that wait for it, directly or through others."""
    after: dict[str, set[str]] = {name: set() for name in needs}
    changed = True
    while changed:
        changed = False
        for name, (waits, _) in needs.items():
            for before in waits:
                more = after[name] | {name}
                if not more <= after[before]:
                    after[before] |= more
                    changed = True
    return after


def make_in_order(steps: list[Model], connections: list[duckdb.DuckDBPyConnection],
                  make: Callable[[duckdb.DuckDBPyConnection, Model], None],
                  started: Callable[[Model], None]) -> list[str]:
    """Make every model of `steps` with make(connection, model), as many at once as there are
    connections, each once the models it waits for are made; returns the names in the order they
    were finished. The first failure stops the rest (those running finish) and is raised."""
    needs = waits_for(steps)
    # Of the models ready at once, those more models wait for (directly or not) go first: the
    # findings, one statement of thirty rules, is then not left to the end of the build.
    after = _waited_for_by(needs)
    order = {m.name: i for i, m in enumerate(steps)}
    pending = sorted((m for m in steps if not m.is_macros), key=lambda m: (-len(after[m.name]), order[m.name]))
    free = list(connections)
    macros_run: dict[int, set[Model]] = {id(c): set() for c in connections}
    done: list[str] = []
    running: dict[Future, tuple[Model, duckdb.DuckDBPyConnection]] = {}

    def run_macros(con: duckdb.DuckDBPyConnection, macros: list[Model]) -> None:
        """The macro files of `macros` this connection has not run yet, in their order."""
        for mac in macros:
            if mac not in macros_run[id(con)]:
                con.execute(mac.sql)
                macros_run[id(con)].add(mac)

    def task(con: duckdb.DuckDBPyConnection, m: Model) -> None:
        run_macros(con, needs[m.name][1])
        make(con, m)

    failure: BaseException | None = None
    with ThreadPoolExecutor(max_workers=len(connections), thread_name_prefix="pound-build") as pool:
        while (pending and failure is None) or running:
            finished = set(done)
            for m in list(pending):
                if failure is not None or not free:
                    break
                if needs[m.name][0] <= finished:
                    pending.remove(m)
                    con = free.pop(0)
                    started(m)
                    running[pool.submit(task, con, m)] = (m, con)
            if not running:
                break
            ready, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in ready:
                m, con = running.pop(fut)
                free.append(con)
                exc = fut.exception()
                if exc is not None:
                    failure = failure or exc
                else:
                    done.append(m.name)
    if failure is not None:
        raise failure
    if pending:
        raise RuntimeError(f"models waiting for what no model makes: {', '.join(m.name for m in pending)}")
    # The caller goes on with the first connection (synth looks up rates with the macros): it is
    # given every macro file a model made on another connection needed.
    run_macros(connections[0], [m for m in steps if m.is_macros])
    return done
