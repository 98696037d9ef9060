"""What state a month is in: not loaded; loaded, not built (and the files loaded since the last
build); built; review made; decisions loaded; closed (with its figures id)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

NOT_LOADED, LOADED, BUILT, REVIEWED, DECIDED, CLOSED = (
    "not loaded", "loaded, not built", "built", "review made", "decisions loaded", "closed")


@dataclass
class State:
    month: str
    district: str | None
    stage: str                                  # one of the six above
    files_since: list[str] = field(default_factory=list)   # loaded after the last build
    built_at: dt.datetime | None = None
    as_of: dt.date | None = None
    printed_figures_id: str | None = None       # page 1 of the review last printed
    figures_id: str | None = None               # of the close in force
    close_folder: Path | None = None
    next: str = ""                               # what comes next, in words


def state(db: Path, month: str, bundle: Path | None = None, district: str | None = None) -> State:
    """The month's state in the database `db` (and, given `bundle`, its closes)."""
    from pipeline.build import record
    from pipeline.load import connection
    from pipeline.load.closes import every_close

    db = Path(db)
    if bundle is not None:
        mine = [(f, c) for f, c in every_close([Path(bundle)]) if c["month"] == month and c.get("district") == district]
        if mine:
            folder, c = max(mine, key=lambda fc: fc[1]["closed_at"])
            return State(month, district, CLOSED, figures_id=c.get("figures_id"), close_folder=folder,
                         as_of=dt.date.fromisoformat(c["as_of"]),
                         next=f"closed by {c['closed_by']} on {c['closed_at']}; pound verify {folder} --bundle {bundle}")
    if not db.exists():
        return State(month, district, NOT_LOADED, next=f"pound month BUNDLE --db {db} --month {month}")
    con = connection.connect(db, read_only=True)
    try:
        if not con.execute("SELECT count(*) FROM loads").fetchone()[0]:
            return State(month, district, NOT_LOADED, next=f"pound month BUNDLE --db {db} --month {month}")
        b = record.last(con)
        since = record.since(con)
        s = State(month, district, LOADED, since, b[1] if b else None, b[2] if b else None)
        if b is None or since:
            decided = con.execute("SELECT count(*) FROM loads WHERE register = 'finding_reviews' AND load_id > ?",
                                  [b[3] if b else 0]).fetchone()[0]
            s.stage = LOADED
            s.next = (f"pound month BUNDLE --db {db} --month {month}, or pound build" if not decided else
                      "the decisions are loaded but not built: pound build (or pound month), then pound close")
            return s
        s.stage = BUILT
        s.next = f"pound report --db {db} --month {month} (or pound month), for the District Magistrate's meeting"
        printed = con.execute("SELECT figures_id, last_load_id FROM printed_reviews WHERE month = ? "
                              "AND district IS NOT DISTINCT FROM ? ORDER BY printed_at DESC LIMIT 1",
                              [month, district]).fetchone() if _has(con, "printed_reviews") else None
        if printed:
            s.printed_figures_id = printed[0]
            decided = con.execute("SELECT count(*) FROM loads WHERE register = 'finding_reviews' AND load_id > ?",
                                  [printed[1] or 0]).fetchone()[0]
            s.stage = DECIDED if decided else REVIEWED
            s.next = ("fill in the decisions in review_" + month + ".xlsx, put it in the bundle's registers/ and "
                      "run pound month again; then pound close") if not decided else "pound close"
        return s
    finally:
        con.close()


def _has(con, table: str) -> bool:
    return bool(con.execute("SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() "
                            "AND schema_name = 'main' AND table_name = ?", [table]).fetchone()[0])
