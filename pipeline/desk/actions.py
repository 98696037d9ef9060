"""What the desk's buttons do: the month's steps, each as the same function the `pound` command
calls, and the month's state. The desk's web layer (app.py) calls the month only through this
module, so that the steps it runs are the command line's, and nothing here knows of HTTP.

Each function takes the desk's places (Places) and a Progress, and returns a dataclass that the
page shows; a user's mistake is a PoundError (one line), a rejected file a row of Loaded.rejects.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError, shown
from pipeline.core.months import month_bounds
from pipeline.core.progress import Progress

DB_WAIT = 2.0        # seconds an action waits for a database a `pound` command is using, then says it is busy


@dataclass(frozen=True)
class Places:
    bundle: Path
    db: Path
    out: Path                      # results/, reports/<month>/, papers/<month>/ are written here

    def reports(self, month: str) -> Path:
        return self.out / "reports" / month

    def papers(self, month: str) -> Path:
        return self.out / "papers" / month

    @property
    def results(self) -> Path:
        return self.out / "results"


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


@dataclass
class Closed:
    month: str
    folder: Path
    figures_id: str | None
    signed: list[tuple[str, str]]
    sign_page: Path | None


@dataclass
class Verified:
    folder: Path
    intact: bool
    lines: list[str]


@dataclass
class Papers:
    month: str
    count: int
    kinds: list[tuple[str, int]]
    index: Path
    pdfs: list[Path]


@dataclass
class State:
    month: str
    stage: str              # not loaded | loaded | built | reviewed | decided | closed
    text: str
    next_step: str
    since_build: list[str] = field(default_factory=list)
    figures_id: str | None = None


def month_end(month: str) -> dt.date:
    return month_bounds(month)[1]


def _write_db(places: Places):
    from pipeline.load import db

    return db.connect(places.db, wait=DB_WAIT)


def summary_line(result) -> str:
    """The load in one line, as `pound ingest` prints it."""
    loaded = [f for f in result.files if f.status in ("loaded", "no_new_rows")]
    skipped = [f for f in result.files if f.status == "skipped"]
    rows = sum(f.new_rows for f in loaded)
    return (f"loaded {len(loaded)} file(s), {rows:,} new row(s); skipped {len(skipped)} already loaded; "
            f"rejected {len(result.rejected)}")


def load(places: Places, month: str, progress: Progress) -> Loaded:
    """pound ingest BUNDLE --db DB --as-of <the month's last day>."""
    from pipeline.load.ingest import ingest

    if not places.bundle.is_dir():
        raise PoundError(f"bundle folder {places.bundle} does not exist")
    con = _write_db(places)
    try:
        result = ingest(con, places.bundle, progress, require_reference=False, as_of=month_end(month),
                        origin=places.bundle)
    finally:
        con.close()
    rejects = [Reject(p.file, p.row, p.column, f"{shown(p.value)} {p.message}" if p.value is not None else p.message)
               for f in result.rejected for p in f.problems]
    return Loaded(summary_line(result), [(f.label, f.status, f.new_rows) for f in result.files], rejects,
                  sum(f.more for f in result.rejected), result.notes + result.warnings)


def build(places: Places, month: str, progress: Progress) -> list[str]:
    """pound build --db DB --out OUT/results --as-of <the month's last day>: the lines it prints."""
    from pipeline.build import build as build_models
    from pipeline.core.params import Parameters
    from pipeline.core.staged import Staged
    from pipeline.load.closes import load_closes
    from pipeline.outputs.exports import write_csvs
    from pipeline.read.database import decisions_applied, rows_left_out

    if not places.db.exists():
        raise PoundError("nothing is loaded yet: press \"Load the registers\" first")
    params = Parameters.load(None, as_of=month_end(month))
    con = _write_db(places)
    try:
        with Staged(places.results) as stage:
            build_models(con, params, progress, first=load_closes)
            lines = [f"rows dated after {params.as_of.isoformat()}, left out of the accounts: {rows_left_out(con)}",
                     decisions_applied(con)]
            write_csvs(con, stage.folder, progress)
            (stage.folder / "parameters.toml").write_text(params.to_toml(), encoding="utf-8")
            stage.commit()
    finally:
        con.close()
    return lines


def review(places: Places, month: str, progress: Progress) -> Reviewed:
    """pound build, then pound report --month MONTH --pdf: the pages, their PDFs and the review workbook."""
    from pipeline.documents.pdf import print_reports
    from pipeline.read.database import connect
    from pipeline.reports import glance
    from pipeline.reports.render import render_reports, report_suffix

    lines = build(places, month, progress)
    progress.step(f"writing the review of {month}")
    out = places.reports(month)
    written = _month_papers(places.db, month, out, render_reports, report_suffix)
    progress.step("printing the pages to PDF")
    pdfs = print_reports([p for p in written if p.suffix == ".html"])
    con = connect(places.db)
    try:
        figures = [(f.label, f.text) for f in glance.figures(con, month)]
    finally:
        con.close()
    links = [Link(p.name, p) for p in written] + [Link(p.name, p) for p in pdfs]
    return Reviewed(month, figures, links, lines)


def _month_papers(db: Path, month: str, out: Path, render_reports, report_suffix) -> list[Path]:
    """pound report's set for a month: the pages and review_<month>.xlsx, written whole or not at all."""
    from pipeline.core.staged import Staged
    from pipeline.outputs.review_sheet import write_review_workbook
    from pipeline.read.database import connect

    with Staged(out) as st:
        written = render_reports(db, month, None, st.folder)
        con = connect(db)
        try:
            written.append(write_review_workbook(con, month, None, st.folder / f"review_{month}{report_suffix(None)}.xlsx"))
        finally:
            con.close()
        st.commit()
    return [out / p.name for p in written]


def close(places: Places, month: str, by: str, note: str | None, progress: Progress) -> Closed:
    """pound close --db DB --month MONTH --by BY --bundle BUNDLE [--note NOTE]."""
    from pipeline.close.seal import close_month

    if not str(by or "").strip():
        raise PoundError("\"Signed by\" must name who closes the month (the District Magistrate)")
    progress.step(f"sealing {month}")
    folder = close_month(places.db, places.bundle, month, by.strip(), None, (note or "").strip() or None, None)
    return _closed(month, folder)


def _closed(month: str, folder: Path) -> Closed:
    from pipeline.load.closes import CLOSE_FILE

    record = json.loads((folder / CLOSE_FILE).read_text(encoding="utf-8"))
    pages = sorted(folder.glob("monthly_review_*.html")) or sorted(folder.glob("*.html"))
    return Closed(month, folder, record.get("figures_id"), [(f["label"], f["text"]) for f in record.get("signed", [])],
                  pages[0] if pages else None)


def close_folder(places: Places, month: str) -> Path | None:
    """The close of the month in force (the latest), if it was closed."""
    from pipeline.load.closes import every_close

    closes = [(f, c) for f, c in every_close([places.bundle]) if c["month"] == month and not c.get("district")]
    return max(closes, key=lambda fc: fc[1]["closed_at"])[0] if closes else None


def verify(places: Places, month: str, progress: Progress) -> Verified:
    """pound verify BUNDLE/closes/MONTH --bundle BUNDLE."""
    from pipeline.close.verify import check_files, rebuild

    folder = close_folder(places, month)
    if folder is None:
        raise PoundError(f"{month} has not been closed: close it first, then verify the close")
    progress.step(f"checking {folder.name} against the bundle")
    record, verdict = check_files(folder)
    if not (verdict.altered or verdict.missing or verdict.added):
        rebuild(record, places.bundle, verdict)
    if verdict.intact:
        return Verified(folder, True, [f"{folder}: intact (the input files rebuild the sealed figures)"])
    return Verified(folder, False, [f"{folder}: {line}" for line in verdict.lines()])


def papers(places: Places, month: str, progress: Progress) -> Papers:
    """pound documents --db DB --out OUT/papers/MONTH --from <first day> --to <last day> --pdf."""
    from pipeline.documents.papers import Scope
    from pipeline.documents.pdf import print_all
    from pipeline.documents.render import write_papers
    from pipeline.read.database import as_of, connect

    first, last = month_bounds(month)
    out = places.papers(month)
    con = connect(places.db, wait=DB_WAIT)
    try:
        progress.step(f"writing the papers of {month}")
        written = write_papers(con, out, Scope((), None, first, last), None, as_of(con), pdf=False)
    finally:
        con.close()
    groups: dict[str, list[Path]] = {}
    for w in written:
        groups.setdefault(w.paper.kind.name, []).append(w.path)
    progress.step(f"printing {len(written):,} papers to PDF")
    pdfs = print_all(groups, out) if written else []
    kinds = [(kind.replace("_", " "), len(paths)) for kind, paths in sorted(groups.items())]
    return Papers(month, len(written), kinds, out / "index.html", [p for p in pdfs if p.name.endswith("_all.pdf")])


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


def state(places: Places, month: str) -> State:
    """Where the month stands: not loaded; loaded, not built (the files loaded since the last build);
    built, review made; decisions loaded; closed (with its figures id)."""
    import duckdb

    from pipeline.core.locks import is_lock_error

    folder = close_folder(places, month) if places.bundle.is_dir() else None
    if folder is not None:
        c = _closed(month, folder)
        return State(month, "closed", f"closed ({folder.name}" + (f", figures id {c.figures_id}" if c.figures_id else "")
                     + ")", "Verify the close, or make the papers", figures_id=c.figures_id)
    if not places.db.exists():
        return State(month, "not loaded", "not loaded", "Load the registers")
    try:
        con = duckdb.connect(str(places.db), read_only=True)
    except duckdb.Error as exc:
        if is_lock_error(exc):
            return State(month, "busy", "the database is busy (a `pound` command is using it)", "wait for it to finish")
        raise
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        loads = con.execute("SELECT file, loaded_at FROM loads ORDER BY load_id").fetchall() if "loads" in tables else []
        if not loads:
            return State(month, "not loaded", "not loaded", "Load the registers")
        built = 0
        if "load_totals" in tables:
            built = int(con.execute("SELECT files FROM load_totals").fetchone()[0] or 0)
        since = [f for f, _ in loads[built:]]
        decided = any(Path(f.split(" [")[0]).name.startswith(f"review_{month}") for f, _ in loads)
    finally:
        con.close()
    if "load_totals" not in tables or since:
        return State(month, "loaded", "loaded, not built", "Make the month's review", since)
    reviewed = (places.reports(month) / f"review_{month}.xlsx").exists()
    if decided:
        return State(month, "decided", "decisions loaded" + (", review made again" if reviewed else ""),
                     "Close the month")
    if reviewed:
        return State(month, "reviewed", "built, review made",
                     "Fill in the decisions in the review workbook, add it, load it; or close the month")
    return State(month, "built", "built, review not made", "Make the month's review")
