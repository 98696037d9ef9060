"""What the desk's buttons do: the month's steps, each as the same function the `pound` command
calls, and the month's state. The desk's web layer (app.py) calls the month only through this
module, so that the steps it runs are the command line's, and nothing here knows of HTTP.

Each function takes the desk's places (Places) and a Progress, calls the step of pipeline.steps that
the `pound` command calls, and returns the step's own result (steps.Loaded, ...), or, where the desk
says something of its own beside it (a build made first), a Shown holding it unchanged; the page
reads the step's fields and methods. A user's mistake is a PoundError (one line), a rejected file's
problems those of the step's result (Loaded.result.problems).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from pipeline import steps
from pipeline.core.errors import PoundError
from pipeline.core.months import month_bounds
from pipeline.core.progress import Progress
from pipeline.desk.looked import district_closes, district_words
from pipeline.desk.places import Places
from pipeline.steps.month_build import built_to, drawn_to, not_over
from pipeline.steps.state import moved_since

DB_WAIT = 2.0        # seconds an action waits for a database a `pound` command is using, then says it is busy


class Steps(Progress):
    """A Progress that keeps the step being done, for the page to show, rather than writing it."""

    def __init__(self, tell: Callable[[str], None] | None = None):
        super().__init__(enabled=False)
        self.tell = tell or (lambda text: None)

    def step(self, text: str) -> None:
        self.tell(text)

    def done(self, text: str) -> None:
        self.tell(text)


T = TypeVar("T")


@dataclass
class Shown(Generic[T]):
    """A step's own result, unchanged (`result`), and the lines the desk says beside it: the build it
    made first, a month not over, the figures moved since a close. Not a step's type: the page reads
    the step's fields and methods through `result`."""
    result: T
    lines: list[str] = field(default_factory=list)


@dataclass
class Link:
    text: str
    path: Path


@dataclass
class Moved:
    """A figure of a closed month that moved since the close (a row of marts/adjustments)."""
    pound: str | None
    measure: str
    closed: str
    current: str
    difference: str
    causes: str


@dataclass
class Sealed:
    """A closed month's review: the one sealed with its close (never a new draft to sign), and the
    figures that moved since, as a build of the close's as-of date counts them."""
    month: str
    folder: Path
    closed_by: str
    closed_at: str
    figures_id: str | None
    links: list[Link]
    moved: list[Moved]
    lines: list[str]


@dataclass
class Reopened:
    month: str
    reason: str
    close: str


def month_end(month: str) -> dt.date:
    return month_bounds(month)[1]


def _built_to(places: Places, day: dt.date, month: str, progress: Progress) -> list[str]:
    """The month's own build (steps/month_build.py), its exports beside its review."""
    return built_to(places.db, day, month, places.to_write(places.month(month) / "exports"), wait=DB_WAIT, progress=progress,
                    bundle=places.bundle)


def load(places: Places, month: str, progress: Progress) -> steps.Loaded:
    """pound ingest BUNDLE --db DB --as-of <the month's last day>."""
    return steps.load(places.bundle, places.db, as_of=month_end(month), wait=DB_WAIT, progress=progress)


def review(places: Places, month: str, progress: Progress) -> Shown[steps.Reviewed] | Sealed:
    """pound month's build and review (steps.build_and_review) into OUT/month_<MONTH>/, with the PDFs:
    the pages, their PDFs and the review workbook, and page 1's figures (the step's page_one); drawn
    up to the month's last day, or to today while the month is not over (the page and the review say
    so), the build's lines before it. A closed month is not reviewed again into a draft: its sealed
    review is shown, with what moved since (sealed)."""
    from pipeline.load.closes import in_force
    from pipeline.load.reopens import pending

    if not places.db.exists():
        raise PoundError("nothing is loaded yet: press \"Load the registers\" first")
    closed = in_force(places.bundle, month) if places.bundle.is_dir() else None
    if closed is not None and pending(places.bundle, month) is None:
        return sealed(places, month, closed, progress)
    built, done, _ = steps.build_and_review(places.db, month, places.to_write(places.month(month)), drawn_to(month), pdf=True,
                                            wait=DB_WAIT, progress=progress, bundle=places.bundle)
    running = not_over(month)
    return Shown(done, ([running] if running else []) + built.lines + built.notes)


def sealed(places: Places, month: str, closed: tuple[Path, dict], progress: Progress) -> Sealed:
    """A closed month's sealed review, and the figures that moved since its close: the database built
    as of the close's own as-of date first (when it is not), so that time running on moves nothing."""
    from pipeline.load.bundle import CLOSES
    from pipeline.read.database import connect
    from pipeline.read.select import Cond, col, select

    folder, record = closed
    lines = []
    lines += _built_to(places, dt.date.fromisoformat(record["as_of"]), month, progress)
    progress.step(f"reading what moved since the close of {month}")
    con = connect(places.db, wait=DB_WAIT)
    try:
        rows = select(con, "adjustments", col("pound_id"), col("measure"), col("closed_shown"), col("current_shown"),
                      col("difference_shown"), col("causes"),
                      where=[Cond("close_folder", "=", f"{CLOSES}/{folder.name}")],
                      order=["pound_id", "measure", "rule_id", "subject_id"]).itertuples(index=False)
        moved = [Moved(*r) for r in rows]
    finally:
        con.close()
    from pipeline.desk import offered

    links = [Link(o.name, o.path) for o in offered.of_month(places, month)["close"] if o.close == folder.name
             and o.name.startswith(("monthly_review", "review_", "signed_page"))]
    lines.append(f"{month} is closed: this is the review sealed with its close ({folder.name}); a new draft is made "
                 "only after \"Reopen the month\"")
    return Sealed(month, folder, record["closed_by"], record["closed_at"], record.get("figures_id"), links, moved,
                  lines)


def reopen(places: Places, month: str, reason: str, progress: Progress) -> Reopened:
    """Reopen a closed month (load/reopens.py): its review is a draft again, and its next close
    carries the reason (pound close --reopen REASON)."""
    from pipeline.load.reopens import ask

    progress.step(f"reopening {month}")
    asked = ask(places.bundle, month, reason)
    return Reopened(month, asked["reason"], asked["close_in_force"])


def close(places: Places, month: str, by: str, note: str | None, progress: Progress,
          signed: Path | None = None) -> Shown[steps.Closed]:
    """pound close --db DB --month MONTH --by BY --bundle BUNDLE [--note NOTE] [--signed SCAN]: a
    month already closed, given the scan, keeps it with its close in force (steps.close decides).
    Who signs is checked by the step (close/seal.py), once for both doors. The database is built as
    of the month's last day first when its last build is of another day (another month's review
    made since); a month reopened on the page is closed again with its reason."""
    from pipeline.load.closes import in_force
    from pipeline.load.reopens import clear, pending

    again = pending(places.bundle, month)
    closed = in_force(places.bundle, month)
    apart = district_closes(places, month)
    if apart and not closed:
        raise PoundError(district_words(month, apart) + "; the desk closes every district at once and does not "
                         "close the month over it: close, reopen or verify it with pound close --district")
    if closed and again is None and not signed:
        raise PoundError(f"{month} was closed by {closed[1]['closed_by']} on {closed[1]['closed_at'][:10]}; to close "
                         "it again, reopen it first (\"Reopen the month\", with the reason): both closes are kept")
    lines = []
    if not (signed and closed and again is None) and places.db.exists():
        if not str(by or "").strip():
            raise PoundError("the close must name who signs it, the District Magistrate (\"Signed by\")")
        if drawn_to(month) < month_end(month):
            raise PoundError(not_over(month))
        lines += _built_to(places, month_end(month), month, progress)
    progress.step(f"keeping the signed page with the close of {month}" if signed and closed and again is None
                  else f"sealing {month}")
    # the month's review made at the desk: its pages of this very build are sealed as they are
    done = steps.close(places.db, places.bundle, month, by, note=(note or "").strip() or None, signed=signed,
                       reopen=again["reason"] if again else None, review=places.month(month))
    if again:
        clear(places.bundle, month)
    return Shown(done, lines)


def verify(places: Places, month: str, progress: Progress) -> Shown[steps.Verified]:
    """pound verify BUNDLE/closes/MONTH --bundle BUNDLE, on the month's close in force; beside its
    verdict, the figures that moved since the close (a close intact is not the figures as they stand)."""
    from pipeline.load.closes import in_force

    found = in_force(places.bundle, month)
    if found is None:
        raise PoundError(f"{month} has not been closed: close it first, then verify the close")
    folder = found[0]
    progress.step(f"checking {folder.name} against the bundle")
    done = steps.verify(folder, places.bundle)
    moved, _ = moved_since(places.db, folder)
    return Shown(done, [f"the close is as it was sealed, but {moved} figure(s) of {month} have moved since it (a "
                        "correction or a late entry loaded): \"Make the month's review\" shows them and why"]
                 if moved else [])


def papers(places: Places, month: str, progress: Progress) -> Shown[steps.Papers]:
    """pound documents --db DB --out OUT/month_<MONTH>/papers --month MONTH --pdf: the papers dated in
    the month, from a build as of its last day (or today, while it is not over), made first when the
    database's last build is of another day."""
    if not places.db.exists():
        raise PoundError("nothing is loaded yet: press \"Load the registers\" first")
    first, last = month_bounds(month)
    out = places.to_write(places.papers(month))
    built = _built_to(places, drawn_to(month), month, progress)
    progress.step(f"writing the papers of {month} and printing them to PDF")
    done = steps.papers(places.db, out, first=first, last=last, pdf=True, wait=DB_WAIT,
                        lang=places.papers_lang)
    running = not_over(month)
    return Shown(done, built + ([running] if running else []))


def kept_scan(scan) -> Path:
    """The scan of the signed page sent with "Close the month" (anything with a save(file), as the
    form's file is), in a file of its own until the close has copied it (the close checks that it is
    a PDF)."""
    import tempfile

    fd, name = tempfile.mkstemp(prefix="pound-desk-signed-", suffix=".pdf")
    with open(fd, "wb") as f:
        scan.save(f)
    return Path(name)


def _decide():
    from pipeline.desk import decide

    return decide


def _no_fields(form: Mapping, files: Mapping) -> dict:
    return {}


def _close_fields(form: Mapping, files: Mapping) -> dict:
    kw = {"by": form.get("by", ""), "note": form.get("note")}
    scan = files.get("signed")
    if scan is not None and getattr(scan, "filename", None):
        kw["signed"] = kept_scan(scan)
    return kw


def _reopen_fields(form: Mapping, files: Mapping) -> dict:
    return {"reason": form.get("reason", "")}


@dataclass(frozen=True)
class Action:
    """A button of the month's steps: its name in the form's address (/do/<name>), its words, the
    step it runs, what it reads of the form, the least role that may press it (people.py), and
    whether the person logged in signs what it records (`by`: the close, the decisions)."""
    name: str
    label: str                                            # the button, and the page's words while it runs
    run: Callable[..., object]                            # run(places, month, progress, **fields)
    fields: Callable[[Mapping, Mapping], dict] = _no_fields    # (form, files) -> the step's keywords
    role: str = "clerk"
    signs: bool = False

    def discard(self, kw: dict) -> None:
        """What the form's reading kept aside for the step (the scan), when the step does not run."""
        if kw.get("signed"):
            Path(kw["signed"]).unlink(missing_ok=True)


# The one list of the desk's actions: the page's buttons, the address a form posts to, the job run
# and the words shown while it runs are all read from here. (Each step is named when it runs, not
# when the list is made, so that a test may put another in its place.)
REGISTRY: dict[str, Action] = {a.name: a for a in (
    Action("load", "Load the registers", lambda places, month, progress: load(places, month, progress)),
    Action("review", "Make the month's review", lambda places, month, progress: review(places, month, progress)),
    Action("close", "Close the month", lambda places, month, progress, by="", note=None, signed=None:
           close(places, month, by, note, progress, signed), _close_fields, role="dm", signs=True),
    Action("verify", "Verify", lambda places, month, progress: verify(places, month, progress), role="auditor"),
    Action("papers", "Make the papers", lambda places, month, progress: papers(places, month, progress)),
    Action("decide", "Record the decisions", lambda places, month, progress, asked=(), by=None:
           _decide().record(places, month, progress, list(asked), load, DB_WAIT, by), lambda form, files: {"asked": _decide().asked_of(form)},
           role="dm", signs=True),
    Action("reopen", "Reopen the month", lambda places, month, progress, reason="":
           reopen(places, month, reason, progress), _reopen_fields, role="dm"),
)}
