"""What the desk reads of a month for its page: where the month stands (steps.state, with what to
press next), the months to choose from, the files loaded (an upload may not take their place), and
a month's closes of one district (which the desk does not make). Nothing here changes anything."""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import steps
from pipeline.core.errors import DatabaseBusy, PoundError
from pipeline.desk.places import Places
from pipeline.steps.state import BUILT, CLOSED, DECIDED, DECIDED_UNBUILT, LOADED, NOT_LOADED, REVIEWED


@dataclass
class State:
    month: str
    stage: str              # one of steps.state.STAGES, or "busy", or "error" (`problem` says why)
    text: str
    next_step: str
    since_build: list[str] = field(default_factory=list)
    figures_id: str | None = None
    problem: str | None = None     # a user's mistake met reading the month's state (PoundError), one line


def district_closes(places: Places, month: str) -> list[tuple[Path, dict]]:
    """The month's closes of one district (pound close --district), which the desk does not make."""
    from pipeline.load.closes import every_close

    if not places.bundle.is_dir():
        return []
    return [(f, c) for f, c in every_close([places.bundle]) if c["month"] == month and c.get("district")]


def district_words(month: str, apart: list[tuple[Path, dict]]) -> str:
    return f"{month} was closed for " + ", ".join(
        f"district {c['district']} by {c['closed_by']} on {c['closed_at'][:10]} ({f.name})" for f, c in apart)


def loaded_files(places: Places, con=None) -> frozenset[str]:
    """The bundle's files loaded into the database (registers/impoundments.csv, ...): an upload may
    not take their place. Read over `con` (a read-only connection's opener, load/connection.py
    read_lazily) when given."""
    if not places.db.exists():
        return frozenset()
    with _reader(places, con) as c:
        return frozenset(f.split(" [", 1)[0] for (f,) in c.execute("SELECT DISTINCT file FROM loads").fetchall())


def months(places: Places, today: dt.date | None = None, read: bool = True, con=None) -> list[str]:
    """The months to choose from: those the registers loaded hold, else (or without `read`) the
    twelve before today. Read over `con`, as loaded_files."""
    from pipeline.core.months import months_between

    held: list[str] = []
    if read and places.db.exists():
        try:
            with _reader(places, con) as c:
                first, last = c.execute("SELECT min(impounded_on), max(impounded_on) FROM impoundments").fetchone()
            if first is not None:
                held = months_between(f"{first:%Y-%m}", f"{last:%Y-%m}")
        except Exception:        # a database being written, or not yet holding impoundments
            held = []
    if held:
        return held
    today = today or dt.date.today()
    last = today.replace(day=1) - dt.timedelta(days=1)
    return months_between(f"{last.year - 1}-{last.month:02d}", f"{last:%Y-%m}")


@contextlib.contextmanager
def _reader(places: Places, con=None):
    """The connection `con` opens, or one of its own for the block."""
    if con is not None:
        yield con()
        return
    from pipeline.load import connection

    with connection.read_lazily(places.db) as own:
        yield own()


NEXT = {   # what comes next at the desk, by the month's stage (steps.state.STAGES)
    NOT_LOADED: "Load the registers",
    LOADED: "Make the month's review",
    DECIDED_UNBUILT: "Make the month's review (the decisions go into its figures), then close the month",
    BUILT: "Make the month's review",
    REVIEWED: "fill in the decisions in the review workbook, add it, load it and make the review again; "
              "or close the month",
    DECIDED: "Close the month",
    CLOSED: "Verify the close, or make the papers",
}
SAID = {BUILT: "built, review not made", REVIEWED: "built, review made"}     # a stage as the page says it


def state(places: Places, month: str, state_of=None) -> State:
    """Where the month stands (steps.state): not loaded; loaded, not built (the files loaded since the
    last build); decisions loaded, not built; built, review made; decisions loaded; closed (with its
    figures id). A user's mistake met on the way (a folder under closes/ that is no close) is said
    in one line (`problem`), not raised: the page must still show. `state_of`: steps.states's, when
    the caller reads other months too."""
    try:
        s = state_of(month) if state_of else steps.state(places.db, month, places.bundle if places.bundle.is_dir() else None)
    except DatabaseBusy as exc:
        return State(month, "busy", f"the database is busy ({exc.holder or 'a `pound` command'} is using it)",
                     "wait for it to finish")
    except PoundError as exc:
        return State(month, "error", "its state cannot be read", "correct what is named above, then show the month "
                     "again", problem=str(exc))
    except Exception as exc:                 # a file that is no database of pound's, say
        import traceback

        traceback.print_exc()          # for whoever looks after the desk; the page says it in one line
        return State(month, "error", "its state cannot be read", "see what is named above",
                     problem=f"the database {places.db} cannot be read ({exc.__class__.__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else ''}); it may not be a database "
                             "pound wrote, or a newer version's: give the office's own --db")
    text = SAID.get(s.stage, s.stage)
    next_step = NEXT[s.stage]
    if s.stage != CLOSED:
        apart = district_closes(places, month)
        if apart:
            return State(month, s.stage, text, "close, reopen or verify it with pound close --district, not at the desk",
                         list(s.files_since), s.figures_id,
                         problem=district_words(month, apart) + " with pound close --district; the desk works on every "
                                 "district at once and does not close the month over it")
    if s.stage == CLOSED:
        text = f"closed ({s.close_folder.name if s.close_folder else month}" + \
            (f", figures id {s.figures_id}" if s.figures_id else "") + ")"
        if s.files_since:
            next_step = ("files were loaded since the last build: \"Make the month's review\" shows whether they "
                         "move the figures sealed, and why")
        if s.moved:
            text += f"; {s.moved} figure(s) moved since the close"
            next_step = ("\"Make the month's review\" shows what moved and why; to sign the figures as they stand, "
                         "reopen the month, make its review and close it again")
    elif s.stage in (REVIEWED, DECIDED) and s.printed_figures_id:
        text += f" (figures id {s.printed_figures_id}, a draft until the close)"
    if s.reopened:
        text = f"reopened ({s.reopened}); {text}"
    return State(month, s.stage, text, next_step, list(s.files_since), s.figures_id)


# The months table's words for a stage (issue 51: not loaded, loaded, built, review made, closed,
# figures moved since the close)
IN_TABLE = {NOT_LOADED: "not loaded", LOADED: "loaded", DECIDED_UNBUILT: "loaded", BUILT: "built",
            REVIEWED: "review made", DECIDED: "review made", CLOSED: "closed"}


@dataclass
class MonthRow:
    month: str
    state: str
    figures_id: str | None
    review: Path | None = None         # the review's first page (HTML), the draft or the one sealed
    to_sign: Path | None = None        # the sealed page to sign (PDF), of the close in force
    signed: Path | None = None         # the signed scan, of the close in force
    papers: Path | None = None         # the papers' index


def month_rows(places: Places, state_of=None, held: list[str] | None = None) -> list[MonthRow]:
    """Every month the bundle holds and the next one, each with its state, its figures id and the
    files the desk offers for it (offered.py). `state_of` and `held` (the months, as months() read
    them): the caller's, when it has read them already."""
    from pipeline.core.months import months_between
    from pipeline.desk import offered

    if state_of is None:
        with steps.states(places.db, places.bundle if places.bundle.is_dir() else None) as state_of:
            return month_rows(places, state_of, held)
    held = held or months(places)
    last = dt.date.fromisoformat(held[-1] + "-01")
    nxt = (last + dt.timedelta(days=32)).strftime("%Y-%m")
    rows = []
    for m in months_between(held[0], nxt):
        try:
            s = state_of(m)         # the months read over one connection
        except Exception as exc:          # said in the row; the page still shows
            rows.append(MonthRow(m, f"cannot be read ({exc.__class__.__name__})", None))
            continue
        rows.append(_month_row(s, offered.of_month(places, m)))
    return rows


def _month_row(s: steps.State, found: dict) -> MonthRow:
    """One month's row of the table: its state in words, its figures id and its files."""
    m = s.month
    words = IN_TABLE[s.stage]
    if s.stage == CLOSED and s.moved:
        words = f"figures moved since the close ({s.moved})"
    row = MonthRow(m, words, s.figures_id if s.stage == CLOSED else s.printed_figures_id)
    row.review = next((o.path for o in found["review"] if o.name == f"monthly_review_{m}.html"), None)
    if s.stage == CLOSED and s.close_folder is not None:
        sealed = [o for o in found["close"] if o.close == s.close_folder.name]
        row.to_sign = next((o.path for o in sealed if o.name.startswith("monthly_review") and o.name.endswith(".pdf")),
                           None)
        row.signed = next((o.path for o in sealed if o.name == "signed_page.pdf"), None)
        row.review = next((o.path for o in sealed if o.name.startswith("monthly_review") and o.name.endswith(".html")),
                          row.review)
    row.papers = next((o.path for o in found["papers"] if o.name == "index.html"), None)
    return row
