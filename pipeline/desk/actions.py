"""What the desk's buttons do: the month's steps, each as the same function the `pound` command
calls, and the month's state. The desk's web layer (app.py) calls the month only through this
module, so that the steps it runs are the command line's, and nothing here knows of HTTP.

Each function takes the desk's places (Places) and a Progress, calls the step of pipeline.steps that
the `pound` command calls, and returns what the page shows; a user's mistake is a PoundError (one
line), a rejected file's problems rows of Loaded.rejects.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import steps
from pipeline.core.errors import DatabaseBusy, PoundError, shown
from pipeline.core.months import month_bounds
from pipeline.core.progress import Progress
from pipeline.steps.state import BUILT, CLOSED, DECIDED, DECIDED_UNBUILT, LOADED, NOT_LOADED, REVIEWED

DB_WAIT = 2.0        # seconds an action waits for a database a `pound` command is using, then says it is busy


@dataclass(frozen=True)
class Places:
    bundle: Path
    db: Path
    out: Path                      # month_<month>/ (as pound month writes it) and its papers/ are written here

    def month(self, month: str) -> Path:
        """The month's review, and the build's exports in its exports/ (steps.month's layout)."""
        return steps.folder_of(self.out, month)

    def papers(self, month: str) -> Path:
        return self.month(month) / "papers"


class Steps(Progress):
    """A Progress that keeps the step being done, for the page to show, rather than writing it."""

    def __init__(self, tell: Callable[[str], None] | None = None):
        super().__init__(enabled=False)
        self.tell = tell or (lambda text: None)

    def step(self, text: str) -> None:
        self.tell(text)

    def done(self, text: str) -> None:
        self.tell(text)


@dataclass
class Reject:
    file: str
    row: int | None
    column: str | None
    problem: str


@dataclass
class Loaded:
    summary: str
    files: list[tuple[str, str, int]]            # label, status, new rows
    rejects: list[Reject] = field(default_factory=list)
    more: int = 0                                # problems beyond those listed
    notes: list[str] = field(default_factory=list)


@dataclass
class Link:
    text: str
    path: Path


@dataclass
class Reviewed:
    month: str
    figures: list[tuple[str, str]]               # page 1: label, value as shown
    links: list[Link]
    lines: list[str]
    figures_id: str | None = None                # page 1 as printed


@dataclass
class Closed:
    month: str
    folder: Path
    figures_id: str | None
    signed: list[tuple[str, str]]
    sign_page: Path | None
    moved: list[str] = field(default_factory=list)     # the page-1 figures that moved since the review printed
    added: Path | None = None                          # the signed scan, added to the close in force


@dataclass
class Verified:
    folder: Path
    intact: bool
    lines: list[str]


@dataclass
class Papers:
    month: str
    count: int
    summary: str                 # steps.Papers.summary(), as pound documents prints it
    index: Path
    pdfs: list[Path]


@dataclass
class State:
    month: str
    stage: str              # one of steps.state.STAGES, or "busy", or "error" (`problem` says why)
    text: str
    next_step: str
    since_build: list[str] = field(default_factory=list)
    figures_id: str | None = None
    problem: str | None = None     # a user's mistake met reading the month's state (PoundError), one line


def month_end(month: str) -> dt.date:
    return month_bounds(month)[1]


def load(places: Places, month: str, progress: Progress) -> Loaded:
    """pound ingest BUNDLE --db DB --as-of <the month's last day>."""
    done = steps.load(places.bundle, places.db, as_of=month_end(month), wait=DB_WAIT, progress=progress)
    rejects = [Reject(p.file, p.row, p.column, f"{shown(p.value)} {p.message}" if p.value is not None else p.message)
               for f in done.rejected for p in f.problems]
    return Loaded(done.summary(), [(f.label, f.status, f.new_rows) for f in done.result.files], rejects,
                  sum(f.more for f in done.rejected), done.note_lines())


def review(places: Places, month: str, progress: Progress) -> Reviewed:
    """pound month's build and review (steps.build_and_review) into OUT/month_<MONTH>/, with the PDFs:
    the pages, their PDFs and the review workbook, and page 1's figures."""
    from pipeline.read.database import connect
    from pipeline.reports import glance

    if not places.db.exists():
        raise PoundError("nothing is loaded yet: press \"Load the registers\" first")
    built, done, _ = steps.build_and_review(places.db, month, places.month(month), month_end(month), pdf=True,
                                            wait=DB_WAIT, progress=progress)
    con = connect(places.db, wait=DB_WAIT)
    try:
        figures = [(f.label, f.text) for f in glance.figures(con, month)]
    finally:
        con.close()
    links = [Link(p.name, p) for p in done.written] + [Link(p.name, p) for p in done.pdfs]
    return Reviewed(month, figures, links, built.lines + done.notes, done.figures_id or None)


def close(places: Places, month: str, by: str, note: str | None, progress: Progress,
          signed: Path | None = None) -> Closed:
    """pound close --db DB --month MONTH --by BY --bundle BUNDLE [--note NOTE] [--signed SCAN]: a
    month already closed, given the scan, keeps it with its close in force (steps.close decides).
    Who signs is checked by the step (close/seal.py), once for both doors."""
    progress.step(f"keeping the signed page with the close of {month}" if signed else f"sealing {month}")
    done = steps.close(places.db, places.bundle, month, by, note=(note or "").strip() or None, signed=signed)
    return Closed(month, done.folder, done.figures_id or None, done.signed,
                  done.page if done.page.is_file() else None, done.moved, done.added)


def verify(places: Places, month: str, progress: Progress) -> Verified:
    """pound verify BUNDLE/closes/MONTH --bundle BUNDLE, on the month's close in force."""
    from pipeline.load.closes import in_force

    found = in_force(places.bundle, month)
    if found is None:
        raise PoundError(f"{month} has not been closed: close it first, then verify the close")
    folder = found[0]
    progress.step(f"checking {folder.name} against the bundle")
    done = steps.verify(folder, places.bundle)
    said = ([done.signed] if done.signed else []) + done.verdict()    # as pound verify says it
    return Verified(folder, done.intact, [f"{folder}: {line}" for line in said])


def papers(places: Places, month: str, progress: Progress) -> Papers:
    """pound documents --db DB --out OUT/month_<MONTH>/papers --from <first day> --to <last day> --pdf."""
    first, last = month_bounds(month)
    progress.step(f"writing the papers of {month} and printing them to PDF")
    done = steps.papers(places.db, places.papers(month), first=first, last=last, pdf=True, wait=DB_WAIT)
    return Papers(month, done.count, done.summary(), done.index, [p for p in done.pdfs if p.name.endswith("_all.pdf")])


def months(places: Places, today: dt.date | None = None, read: bool = True) -> list[str]:
    """The months to choose from: those the registers loaded hold, else (or without `read`) the
    twelve before today."""
    from pipeline.core.months import months_between

    held: list[str] = []
    if read and places.db.exists():
        try:
            import duckdb

            con = duckdb.connect(str(places.db), read_only=True)
            try:
                first, last = con.execute("SELECT min(impounded_on), max(impounded_on) FROM impoundments").fetchone()
            finally:
                con.close()
            if first is not None:
                held = months_between(f"{first:%Y-%m}", f"{last:%Y-%m}")
        except Exception:        # a database being written, or not yet holding impoundments
            held = []
    if held:
        return held
    today = today or dt.date.today()
    last = today.replace(day=1) - dt.timedelta(days=1)
    return months_between(f"{last.year - 1}-{last.month:02d}", f"{last:%Y-%m}")


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


def state(places: Places, month: str) -> State:
    """Where the month stands (steps.state): not loaded; loaded, not built (the files loaded since the
    last build); decisions loaded, not built; built, review made; decisions loaded; closed (with its
    figures id). A user's mistake met on the way (a folder under closes/ that is no close) is said
    in one line (`problem`), not raised: the page must still show."""
    try:
        s = steps.state(places.db, month, places.bundle if places.bundle.is_dir() else None)
    except DatabaseBusy as exc:
        return State(month, "busy", f"the database is busy ({exc.holder or 'a `pound` command'} is using it)",
                     "wait for it to finish")
    except PoundError as exc:
        return State(month, "error", "its state cannot be read", "correct what is named above, then show the month "
                     "again", problem=str(exc))
    text = SAID.get(s.stage, s.stage)
    if s.stage == CLOSED:
        text = f"closed ({s.close_folder.name if s.close_folder else month}" + \
            (f", figures id {s.figures_id}" if s.figures_id else "") + ")"
    elif s.stage in (REVIEWED, DECIDED) and s.printed_figures_id:
        text += f" (figures id {s.printed_figures_id}, a draft until the close)"
    return State(month, s.stage, text, NEXT[s.stage], list(s.files_since), s.figures_id)
