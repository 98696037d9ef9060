"""Typing a small bundle's files ahead, on a second connection, while the loader checks and
inserts the files before them.

Typing a small file (cells.py) is a third of its load, and the rest (the suite, the versions,
the insert) must go file after file; meanwhile the second core has nothing to do. So for a small
bundle a second connection types every plain CSV file, in the order they will be loaded, into
a table of its own in an in-memory database attached for the load (`_ahead`, which every
connection of the database sees), and the loader takes each file's table when it comes to it
(cells.type_rows). A file the second connection could not type as it is (cells.type_ahead says
None), and every other kind of file, is typed by the loader as before. The attached database
is dropped with every table in it when the load ends.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Future, ThreadPoolExecutor

import duckdb

from pipeline.load import cells
from pipeline.load.bundle import Read, Source, read_source

SCHEMA = "_ahead"


@contextlib.contextmanager
def typing_ahead(con: duckdb.DuckDBPyConnection, sources: list[Source], reads: dict[str, Read], when: bool = True):
    """Within the block, the plain CSV files of `sources` are typed on a second connection; yields
    a function giving, for a source, (table, what it holds) once it is typed, or None. `reads`
    gains the read of every source (each file is read once). `when` False: nothing is typed ahead."""
    if not when:
        yield lambda src: None
        return
    for src in sources:
        reads[src.label] = reads.get(src.label) or read_source(src)
    con.execute(f"ATTACH ':memory:' AS {SCHEMA}")
    cur = con.cursor()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pound-typing")
    futures: dict[str, tuple[str, Future]] = {}
    try:
        for i, src in enumerate(sources):
            read = reads[src.label]
            if read.plain is not None and not read.problems and not read.in_db:
                table = f"{SCHEMA}.t{i}"
                futures[src.label] = (table, pool.submit(cells.type_ahead, cur, read, table))

        def ahead(src: Source):
            if src.label not in futures:
                return None
            table, future = futures.pop(src.label)
            typed = future.result()
            return None if typed is None else (table, typed)

        yield ahead
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        cur.close()
        con.execute(f"DETACH {SCHEMA}")
