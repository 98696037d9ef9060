"""What a build reflects: the loads it was made from (the table builds, load/schema.py).

Each whole build writes one row in its own transaction: its time, its as-of date and the last
load it read. A load made after it (a load_id above that) is not in its figures: `since` names
those files, so that a close refuses the figures and every reader says so: on the command line
(stale_line) and on the face of what it writes (stale_notice).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb

from pipeline.core.clock import now


def _now() -> dt.datetime:
    """The build's time. POUND_BUILD_TIME (YYYY-MM-DDTHH:MM:SS) fixes it, as POUND_LOAD_TIME does a load's."""
    return now("POUND_BUILD_TIME")


def record(con: duckdb.DuckDBPyConnection, as_of: dt.date) -> None:
    """Write the build's row (inside the build's transaction: it stands or falls with the figures)."""
    last, files = con.execute("SELECT coalesce(max(load_id), 0), count(*) FROM loads").fetchone()
    con.execute("INSERT INTO builds SELECT coalesce(max(build_id), 0) + 1, ?, ?, ?, ? FROM builds",
                [_now(), as_of, last, files])


def _has_builds(con) -> bool:
    from pipeline.load.schema import has_table

    return has_table(con, "builds")


@dataclass(frozen=True)
class Build:
    """A build's row of the table builds: which, when, as of what date, and the last load it read."""
    build_id: int
    built_at: dt.datetime
    as_of: dt.date
    last_load_id: int


def last(con) -> Build | None:
    """The last build, or None (never built, or built by a version that kept no record)."""
    if not _has_builds(con):
        return None
    row = con.execute("SELECT build_id, built_at, as_of, last_load_id FROM builds "
                      "ORDER BY build_id DESC LIMIT 1").fetchone()
    return Build(*row) if row else None


def since(con) -> list[str]:
    """The files loaded after the last build, in load order (every file when no build is recorded)."""
    b = last(con)
    return [f for (f,) in con.execute("SELECT file FROM loads WHERE load_id > ? ORDER BY load_id",
                                      [b.last_load_id if b else 0]).fetchall()]


def stale_line(files: list[str], db=None) -> str:
    """One line naming the files loaded after the figures, and what to run."""
    shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
    build = f"pound build --db {db} --out FOLDER" if db else "pound build"
    return (f"{len(files)} file(s) loaded after the figures were built ({shown}); "
            f"the figures do not reflect them: run {build} (or pound month)")


def stale_notice(con) -> str | None:
    """The sentence a page, a paper or a workbook carries at its top when files were loaded after
    its figures (None when none were): the one wording of every output."""
    files = since(con)
    return f"Not up to date: {stale_line(files)}." if files else None
