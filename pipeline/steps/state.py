"""What state a month is in: not loaded; loaded, not built (and the files loaded since the last
build); decisions loaded, not built; built; review made; decisions loaded; closed (with its figures id).

"Decisions loaded" means one thing everywhere: a file of the register finding_reviews (the
review workbook filled in at the meeting) loaded after a given load, `decisions_since`. Since the
last build, they are not in the figures (DECIDED_UNBUILT); since the review last printed for the
month, they are the meeting's, and the month may be closed (DECIDED)."""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.load.schema import has_table

NOT_LOADED, LOADED, DECIDED_UNBUILT, BUILT, REVIEWED, DECIDED, CLOSED = (
    "not loaded", "loaded, not built", "decisions loaded, not built", "built", "review made", "decisions loaded",
    "closed")
STAGES = (NOT_LOADED, LOADED, DECIDED_UNBUILT, BUILT, REVIEWED, DECIDED, CLOSED)


@dataclass
class State:
    month: str
    district: str | None
    stage: str                                  # one of STAGES
    files_since: list[str] = field(default_factory=list)   # loaded after the last build
    built_at: dt.datetime | None = None
    as_of: dt.date | None = None
    printed_figures_id: str | None = None       # page 1 of the review last printed
    figures_id: str | None = None               # of the close in force
    close_folder: Path | None = None
    moved: int | None = None                    # closed: the figures that moved since the close, as last built
    reopened: str | None = None                 # the reason the month was reopened, until it is closed again


def state(db: Path, month: str, bundle: Path | None = None, district: str | None = None) -> State:
    """The month's state in the database `db` (and, given `bundle`, its closes: a month reopened at the
    desk is in the state its database says until it is closed again)."""
    with states(db, bundle, district) as state_of:
        return state_of(month)


@contextlib.contextmanager
def states(db: Path, bundle: Path | None = None, district: str | None = None, con=None):
    """state_of(month): state() of any month, all read over one read-only connection to `db`
    (load/connection.py read_lazily: opened by the first month that reads the database, closed at
    the end of the block; or `con`, such a connection's opener given by a caller that reads more
    over it), and the last build read once. Opening the database was most of what a month's state
    cost (about 25 ms), and the desk's table of months reads ten or more months for each page."""
    from pipeline.load import connection

    db = Path(db)
    if con is None:
        with connection.read_lazily(db) as opener, states(db, bundle, district, opener) as state_of:
            yield state_of
        return

    built = []          # the last build and the files loaded since it: the same for every month

    def last_build():
        from pipeline.build import record

        if not built:
            built.append((record.last(con()), record.since(con())))
        return built[0]

    def state_of(month: str) -> State:
        from pipeline.load.closes import in_force
        from pipeline.load.reopens import pending

        reopened = None
        if bundle is not None:
            found = in_force(bundle, month, district)
            again = pending(bundle, month, district) if found else None
            if found and again is None:
                folder, c = found
                moved, since = _moved_since(con(), folder) if db.exists() else (None, [])
                return State(month, district, CLOSED, since, figures_id=c.get("figures_id"), close_folder=folder,
                             as_of=dt.date.fromisoformat(c["as_of"]), moved=moved)
            reopened = again["reason"] if again else None
        if not db.exists():
            return State(month, district, NOT_LOADED, reopened=reopened)
        s = _of_database(con(), month, district, last_build)
        s.reopened = reopened
        return s

    yield state_of


def moved_since(db: Path, folder: Path) -> tuple[int | None, list[str]]:
    """How many figures of a close have moved since it (marts/adjustments, as last built; None when
    the database holds no such build), and the files loaded since that build (not in the count)."""
    from pipeline.load import connection

    if not Path(db).exists():
        return None, []
    con = connection.connect(db, read_only=True)
    try:
        return _moved_since(con, folder)
    finally:
        con.close()


def _moved_since(con, folder: Path) -> tuple[int | None, list[str]]:
    from pipeline.build import record
    from pipeline.load.bundle import CLOSES

    since = record.since(con) if has_table(con, "loads") else []
    if not has_table(con, "adjustments"):
        return None, since
    return con.execute("SELECT count(*) FROM adjustments WHERE close_folder = ?",
                       [f"{CLOSES}/{Path(folder).name}"]).fetchone()[0], since


def _of_database(con, month: str, district: str | None, last_build) -> State:
    """The month's state from the database (last_build(): the last build and the files loaded since)."""
    if not con.execute("SELECT count(*) FROM loads").fetchone()[0]:
        return State(month, district, NOT_LOADED)
    b, since = last_build()
    s = State(month, district, LOADED, list(since), b.built_at if b else None, b.as_of if b else None)
    if b is None or since:
        decided = b is not None and decisions_since(con, b.last_load_id)
        s.stage = DECIDED_UNBUILT if decided else LOADED
        return s
    s.stage = BUILT
    printed = last_printed(con, month, district)
    if printed:
        s.printed_figures_id = printed[0]
        decided = decisions_since(con, printed[1])
        s.stage = DECIDED if decided else REVIEWED
    return s


def decisions_since(con, load_id: int | None) -> list[str]:
    """The decision files (register finding_reviews) loaded after load `load_id`, in load order."""
    return [f for (f,) in con.execute("SELECT file FROM loads WHERE register = 'finding_reviews' AND load_id > ? "
                                      "ORDER BY load_id", [load_id or 0]).fetchall()]


def last_printed(con, month: str, district: str | None = None) -> tuple[str, int | None] | None:
    """The review last printed for the month: (its figures id, the last load its build read), or None."""
    if not has_table(con, "printed_reviews"):
        return None
    return con.execute("SELECT figures_id, last_load_id FROM printed_reviews WHERE month = ? "
                       "AND district IS NOT DISTINCT FROM ? ORDER BY printed_at DESC LIMIT 1",
                       [month, district]).fetchone()


def decided_at_the_meeting(db: Path, month: str, district: str | None = None, wait: float = 0) -> list[str]:
    """The decision files loaded since the review last printed for the month (the page taken to the
    meeting); none when no review of the month was printed (decisions before the meeting are not its)."""
    from pipeline.read.database import connect

    con = connect(db, wait=wait)
    try:
        printed = last_printed(con, month, district)
        return decisions_since(con, printed[1]) if printed else []
    finally:
        con.close()

