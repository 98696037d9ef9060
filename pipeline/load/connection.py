"""Opening a database: DuckDB's settings for every database pound opens (threads, and for a
file it writes a memory limit and a spill folder beside it), the lock another program may hold,
and one transaction on a connection. The tables a new database is given are in schema.py.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import duckdb

from pipeline.core.locks import opened
from pipeline.load.schema import ensure_schema


def connect(path: Path | str, read_only: bool = False, wait: float = 0,
            rows: int | None = None) -> duckdb.DuckDBPyConnection:
    """Open (or create) a database; while another program holds it, try again for `wait` seconds.
    `rows`, for a database made here: about how many rows it is made for (SMALL_BLOCK)."""
    config = options(None if read_only else path)
    if rows is not None and not read_only and not Path(path).exists() and rows < ROW_GROUP:
        config["default_block_size"] = SMALL_BLOCK
    con = opened(lambda: duckdb.connect(str(path), read_only=read_only, config=config), Path(path), wait)
    if not read_only:
        if "temp_directory" in config:
            _clear_spilled(Path(str(config["temp_directory"])))
        ensure_schema(con)
    return con


def _clear_spilled(folder: Path) -> None:
    """What a killed build spilled into the temporary directory (DuckDB leaves it): the database is
    opened for writing by this process alone now, so every file there of another process is stale."""
    if folder.is_dir():
        mine = f"duckdb_temp_{os.getpid()}_"
        for stale in folder.glob("duckdb_temp_*"):
            if not stale.name.startswith(mine):
                stale.unlink(missing_ok=True)


def asked_threads() -> int | None:
    """The threads $POUND_THREADS asks for (a whole number, 1 or more), else None."""
    chosen = os.environ.get("POUND_THREADS", "").strip()
    return int(chosen) if chosen.isdigit() and int(chosen) >= 1 else None


def options(written: Path | str | None = None) -> dict[str, int | str]:
    """DuckDB's settings for every database pound opens: as many threads as $POUND_THREADS says,
    if it says (else one a core): on a machine shared with other work, 1 keeps a command to one
    core. For a database file pound writes (`written`), a memory limit ($POUND_MEMORY_LIMIT, else
    MEMORY_LIMIT) and a temporary directory beside the file: a build is one transaction, and at
    the scale of a state it spills what it holds there rather than growing past the limit."""
    chosen = asked_threads()
    out: dict[str, int | str] = {"threads": chosen} if chosen else {}
    if written is not None and str(written) != ":memory:":
        out["memory_limit"] = os.environ.get("POUND_MEMORY_LIMIT", "").strip() or MEMORY_LIMIT
        out["temp_directory"] = f"{written}.tmp"
    return out


ROW_GROUP = 122_880      # DuckDB's rows in a row group: its threads share a table's scan by row groups

# The block of a database file made for a bundle that fits one row group (a district's month): each
# of the database's hundred tables takes a block or more, so the file is 2 MB rather than 20 MB at
# DuckDB's 256 KiB, and its checkpoint writes a tenth as much (docs/benchmarks.md). DuckDB keeps a
# file's block size for its life: a database that grows past a month keeps its small blocks.
SMALL_BLOCK = 16_384


def bundle_rows(folder: Path) -> int:
    """About how many rows a bundle's files hold, at most: a row of a register takes more than 16 bytes."""
    return sum(f.stat().st_size for f in Path(folder).rglob("*") if f.is_file()) // 16


def threads_for(con: duckdb.DuckDBPyConnection, rows: int) -> None:
    """One thread for work on at most `rows` rows when they fit in one row group (a district's
    month): the threads could share no scan, and starting and joining them cost about a tenth of
    `pound run data/sample` (docs/benchmarks.md). $POUND_THREADS, when set, stands."""
    if asked_threads() is None and rows < ROW_GROUP:
        con.execute("SET threads = 1")


def threads_for_tables(con: duckdb.DuckDBPyConnection) -> None:
    """threads_for the largest table of the database `con` has open: one thread for a database whose
    every table fits in one row group (a district's), DuckDB's own count for a state's."""
    threads_for(con, con.execute("SELECT coalesce(max(estimated_size), 0) FROM duckdb_tables() "
                                 "WHERE database_name = current_database()").fetchone()[0])


# DuckDB's own memory; the process holds Python, pandas and what DuckDB does not count besides.
MEMORY_LIMIT = "2GB"


@contextlib.contextmanager
def one_transaction(con: duckdb.DuckDBPyConnection):
    """Within the block, every statement on `con` is one transaction: committed at its end, rolled
    back if it fails."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


@contextlib.contextmanager
def read_lazily(db: Path | str):
    """con(): one read-only connection to `db`, opened the first time it is asked for (never, when
    nothing in the block reads the database) and closed at the end of the block. Opening a database
    costs about 20 ms, most of what a small read costs: the desk's page reads its parts over one."""
    held: list[duckdb.DuckDBPyConnection] = []

    def con() -> duckdb.DuckDBPyConnection:
        if not held:
            held.append(connect(db, read_only=True))
        return held[0]

    try:
        yield con
    finally:
        if held:
            held[0].close()
