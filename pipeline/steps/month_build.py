"""Which build a month's steps read: the month's own, as of its last day, or as of today while the
month is not over. The review, the papers and the close of a month made at the desk, and `pound
documents --month`, build it first when the database's last build is of another day (another
month's review made since), and say so."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pipeline.core.locks import DEFAULT_WAIT
from pipeline.core.months import month_bounds
from pipeline.core.progress import Progress


def drawn_to(month: str) -> dt.date:
    """The day a month's accounts are drawn up to: its last day, or today while it is not over
    (core/clock.today: POUND_TODAY fixes it)."""
    from pipeline.core.clock import today

    return min(month_bounds(month)[1], today())


def not_over(month: str) -> str | None:
    """What is said of a month still running, or None when it is over."""
    day, last = drawn_to(month), month_bounds(month)[1]
    if day >= last:
        return None
    return (f"{month} is not over: its accounts are drawn up to today, {day:%d-%m-%Y}, not to its last day, "
            f"{last:%d-%m-%Y}; what happens later in the month, and a deadline falling later, is not in them yet. "
            "Close it once it is over.")


def built_to(db: Path, day: dt.date, month: str, exports: Path, wait: float = DEFAULT_WAIT,
             progress: Progress | None = None, bundle: Path | None = None) -> list[str]:
    """Build `db` as of `day` (the exports into `exports`) unless its last build is of that day and
    holds every file loaded; the lines that say so, the build's own notes after them (a database's rows
    taken as they stand, a bundle not found), none when the build in place is the month's.
    `bundle`: the bundle whose closes the build reads (steps.build)."""
    from pipeline.build import record
    from pipeline.load import connection
    from pipeline.steps.build import build

    con = connection.connect(db, read_only=True, wait=wait)
    try:
        last = record.last(con)
        since = record.since(con)
    finally:
        con.close()
    if last is not None and last.as_of == day and not since:
        return []
    before = (f"the database was last built as of {last.as_of:%d-%m-%Y}" if last is not None
              else "the database had not been built")
    if last is not None and since:
        before += f", before {len(since)} file(s) were loaded"
    if progress is not None:
        progress.step(f"building the accounts as of {day:%d-%m-%Y} for {month} ({before})")
    done = build(db, exports, as_of=day, wait=wait, progress=progress, bundle=bundle)
    return [f"built the accounts as of {day:%d-%m-%Y} for {month} first: {before}"] + \
        [n for n in done.notes if not n.startswith("note: the accounts are drawn up to")]
