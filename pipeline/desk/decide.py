"""The District Magistrate's decisions made on the desk's page.

The findings shown are the review workbook's own (outputs/review_sheet.open_findings: open and
reopened, of the month and the months before it, as page 1 counts them). "Record the decisions"
writes the decisions taken into a file of the register finding_reviews in the bundle,
registers/finding_reviews_<MONTH>_desk_<STAMP>.xlsx, with the register's columns and the finding's
detail as the workbook carries it, and loads it with the load every register file goes through
(steps.load): a decision made on the page and the same one made in the workbook leave the same
rows. Nothing from the form is trusted: a finding is found again among those waiting, the
decision among those the register allows, the day parsed and kept on or before today; a row
refused is said beside it and the others are recorded. A file the load refuses is taken out of
the bundle again (it was never loaded), so that no later load meets it.

The file is a workbook, not a CSV: a note typed on the page is written as a text cell, so that one
beginning with "=" (or "+", "-", "@") is kept as the words typed when the office opens the register in a
spreadsheet, never run as a formula (outputs/xlsx.py writes such a text as text).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.registers import BY_NAME, DECISIONS
from pipeline.desk.places import Places

REGISTER = BY_NAME["finding_reviews"]
COLUMNS = ("rule_id", "subject_id", "reviewed_on", "reviewed_by", "decision", "note", "finding_detail")
NOTE_CHARS = 2000          # a note longer than this is refused (a page's note is a line or two)
ROWS = 2000                # the most rows one form may send


@dataclass
class Waiting:
    """A finding waiting for the District Magistrate's decision, as the review workbook lists it."""
    rule_id: str
    subject_id: str
    section: str
    severity: str
    subject_detail: str
    days_open: int | None
    review_status: str
    district: str | None
    since: str | None = None       # a decision loaded since the build (in the figures once the review is made)

    @property
    def by(self) -> str:
        """Who decides, as the review workbook writes it when no one is logged in."""
        return "District Magistrate" + (f", {self.district}" if self.district else "")


@dataclass
class Asked:
    """One row of the page's form, and why it was refused (None: recorded, or left undecided)."""
    rule_id: str
    subject_id: str
    decision: str
    decided_on: str
    note: str
    refused: str | None = None


@dataclass
class Decided:
    month: str
    recorded: int
    refused: list[Asked] = field(default_factory=list)
    file: Path | None = None
    loaded: object = None                # steps.Loaded, of the load that took the file
    lines: list[str] = field(default_factory=list)


def waiting(places: Places, month: str, wait: float = 0, con=None) -> list[Waiting]:
    """The findings waiting up to `month` in the last build (none before a build); read over `con`
    (a read-only connection's opener, load/connection.py read_lazily) when given."""
    from pipeline.load.schema import has_table
    from pipeline.read import database

    if not places.db.exists():
        return []
    if con is not None:                 # the page's read: a database not built yet has none waiting
        if not has_table(con(), "findings"):
            return []
        database.check(con(), places.db)
        return _waiting(con(), month)
    own = database.connect(places.db, wait=wait)
    try:
        return _waiting(own, month)
    finally:
        own.close()


def _waiting(con, month: str) -> list[Waiting]:
    from pipeline.outputs.review_sheet import open_findings

    rows = open_findings(con, month)
    since = dict(((r, s), d) for r, s, d in con.execute(SINCE).fetchall())
    return [Waiting(r["rule_id"], r["subject_id"], r.get("section") or "", r.get("severity") or "",
                    r.get("detail") or "", r.get("days_open"), r.get("review_status") or "", r.get("district"),
                    since.get((r["rule_id"], r["subject_id"])))
            for r in rows]


# The decisions loaded since the last build: rows of the register the build has not read yet.
SINCE = """
    SELECT rule_id, subject_id, arg_max(decision, reviewed_on) FROM finding_reviews r
    WHERE NOT coalesce(void, false) AND decision IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM int_finding_reviews i WHERE i.rule_id = r.rule_id AND i.subject_id = r.subject_id
                      AND i.reviewed_on = r.reviewed_on)
    GROUP BY rule_id, subject_id
"""


def asked_of(form: Mapping) -> list[Asked]:
    """The rows the page's form sent (rule_id, subject_id, decision, decided_on, note, in step)."""
    names = ("rule_id", "subject_id", "decision", "decided_on", "note")
    lists = [form.getlist(n) if hasattr(form, "getlist") else list(form.get(n, [])) for n in names]
    if len({len(v) for v in lists}) != 1:
        raise PoundError("the form's rows are incomplete: show the month again and decide again")
    if len(lists[0]) > ROWS:
        raise PoundError(f"at most {ROWS} decisions are recorded at once")
    return [Asked(*(str(v or "").strip() for v in row)) for row in zip(*lists, strict=True)]


def checked(asked: list[Asked], found: list[Waiting], today: dt.date) -> tuple[list[tuple[Asked, Waiting]], list[Asked]]:
    """The rows to record (with their finding) and those refused, each with its reason; a row with
    no decision is a finding left undecided, neither."""
    by_key = {(w.rule_id, w.subject_id): w for w in found}
    taken: list[tuple[Asked, Waiting]] = []
    refused: list[Asked] = []
    seen: set[tuple[str, str]] = set()
    for a in asked:
        if not a.decision:
            continue
        key = (a.rule_id, a.subject_id)
        finding = by_key.get(key)
        if a.decision not in DECISIONS:
            a.refused = f"{a.decision[:40]!r} is not a decision the review allows ({', '.join(DECISIONS)})"
        elif finding is None:
            a.refused = "this finding is not waiting for a decision (decided already, or no longer raised): show the month again"
        elif finding.since:
            a.refused = (f"a decision on this finding ({finding.since}) was loaded since the last build: make the "
                         "month's review to see it in the figures")
        elif key in seen:
            a.refused = "this finding is decided twice in the form: one decision each"
        elif not a.decided_on:
            a.refused = "write the day the decision was made (Decided on)"
        else:
            try:
                day = dt.date.fromisoformat(a.decided_on)
            except ValueError:
                day = None
                a.refused = f"{a.decided_on[:20]!r} is not a day (write it as the date field offers)"
            if day is not None and day > today:
                a.refused = (f"{day:%d-%m-%Y} is after today ({today:%d-%m-%Y}): a decision cannot be recorded "
                             "before it is made")
        if a.refused is None and len(a.note) > NOTE_CHARS:
            a.refused = f"the note is longer than {NOTE_CHARS} characters"
        if a.refused:
            refused.append(a)
        else:
            seen.add(key)
            taken.append((a, finding))
    return taken, refused


def file_name(month: str, now: dt.datetime) -> str:
    return f"{REGISTER.name}_{month}_desk_{now:%Y%m%dT%H%M%S}.xlsx"


def write(places: Places, month: str, taken: list[tuple[Asked, Waiting]], by: str | None, now: dt.datetime) -> Path:
    """The decisions as a workbook of finding_reviews (its one sheet named after the register) in the
    bundle's registers/, written whole (a hidden file renamed onto its name: the loader passes over
    hidden files); a cell left blank on the page is no cell."""
    from pipeline.outputs.xlsx import Workbook

    folder = places.bundle / REGISTER.folder
    folder.mkdir(exist_ok=True)
    path = folder / file_name(month, now)
    n = 2
    while path.exists():
        path = folder / file_name(month, now).replace(".xlsx", f"_{n}.xlsx")
        n += 1
    with Workbook(path) as wb:
        sheet = wb.sheet(REGISTER.name, frozen=False)
        sheet.append(list(COLUMNS))
        for a, f in taken:
            sheet.append([v if v != "" else None for v in
                          (f.rule_id, f.subject_id, a.decided_on, by or f.by, a.decision, a.note, f.subject_detail)])
        return wb.save()


def record(places: Places, month: str, progress, asked: list[Asked], load, wait: float, by: str | None = None,
           today: dt.date | None = None) -> Decided:
    """Check the page's rows, write those decided into the bundle and load them with `load` (the
    desk's "Load the registers", steps.load); `wait`: seconds to wait for the database."""
    today = today or dt.date.today()
    progress.step(f"checking the decisions on the findings up to {month}")
    taken, refused = checked(asked, waiting(places, month, wait=wait), today)
    if not taken:
        return Decided(month, 0, refused, lines=["no decision recorded" + (": see the refusals beside the findings"
                                                                          if refused else ": none was chosen")])
    path = write(places, month, taken, by, dt.datetime.now())
    try:
        loaded = load(places, month, progress)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    if any(path.name in p.file for p in loaded.result.problems):
        path.unlink(missing_ok=True)        # never loaded: no later load is to meet it
        return Decided(month, 0, refused, None, loaded, ["the decisions were refused by the load; nothing was recorded"])
    return Decided(month, len(taken), refused, path, loaded,
                   [f"{len(taken)} decision(s) recorded in {REGISTER.folder}/{path.name} and loaded; "
                    "\"Make the month's review\" puts them into its figures"])
