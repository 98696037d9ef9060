"""One command for the month: load what is new, build as of the month's end, write the month's review."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.locks import DEFAULT_WAIT
from pipeline.core.months import month_bounds
from pipeline.core.progress import Progress
from pipeline.load.closes import in_force
from pipeline.steps.build import Built, build
from pipeline.steps.load import Loaded, load
from pipeline.steps.review import Reviewed, review
from pipeline.steps.state import decided_at_the_meeting


@dataclass
class Month:
    month: str
    as_of: dt.date
    loaded: Loaded
    built: Built | None = None            # None when a file was rejected (nothing built)
    reviewed: Reviewed | None = None
    next: list[str] = field(default_factory=list)   # what comes next, a line each

    @property
    def rejected(self) -> bool:
        return bool(self.loaded.rejected)


def folder_of(root: Path, month: str) -> Path:
    """The month's folder under `root`: month_<YYYY-MM>/, the review in it and the build's exports
    in its exports/ (pound month and the desk alike)."""
    return Path(root) / f"month_{month}"


def default_out(db: Path, month: str) -> Path:
    """Where the month's review goes unless told: month_<YYYY-MM>/ beside the database."""
    return folder_of(Path(db).parent, month)


def build_and_review(db: Path, month: str, out: Path, as_of: dt.date, district: str | None = None,
                     params_file: Path | None = None, pdf: bool = False, wait: float = DEFAULT_WAIT,
                     progress: Progress | None = None, bundle: Path | None = None) -> tuple[Built, Reviewed, list[str]]:
    """The month after its load, for pound month and the desk: build as of `as_of` with the exports
    in OUT/exports, and write the month's review into OUT. Also returns the decision files loaded
    since the review printed before this one (the meeting's decisions, now in its figures).
    `bundle`: the bundle the month was loaded from, whose closes the build compares (steps.build)."""
    built = build(db, Path(out) / "exports", as_of=as_of, params_file=params_file, wait=wait, progress=progress,
                  bundle=bundle)
    # asked before this review is printed: decisions loaded since the page taken to the meeting
    decided = decided_at_the_meeting(db, month, district, wait=wait)
    if progress is not None:
        progress.step(f"writing the review of {month}" + (" and printing its pages to PDF" if pdf else ""))
    return built, review(db, out, month=month, district=district, pdf=pdf, wait=wait), decided


def month(bundle: Path, db: Path, month: str, as_of: dt.date | None = None, out: Path | None = None,
          district: str | None = None, params_file: Path | None = None, wait: float = DEFAULT_WAIT,
          progress: Progress | None = None) -> Month:
    """Load the bundle's new files into `db`, build as of the month's last day (or `as_of`) with the
    exports in OUT/exports, and write the month's review into OUT (default month_<month>/ beside
    the database). A rejected file stops it after the load: nothing is built."""
    the_end = month_bounds(month)[1]
    as_of = as_of or the_end
    out = Path(out) if out else default_out(db, month)
    for folder in (out, out / "exports"):       # refused before anything is loaded or built
        if folder.exists() and not folder.is_dir():
            raise PoundError(f"--out {out}: {folder} exists and is not a folder; give a folder for the month's review")
    loaded = load(bundle, db, as_of=as_of, wait=wait, progress=progress)
    done = Month(month, as_of, loaded)
    if loaded.rejected:
        done.next = ["correct the file(s) named above and run pound month again (the files that loaded are kept)"]
        return done
    done.built, done.reviewed, decided = build_and_review(db, month, out, as_of, district, params_file, wait=wait,
                                                          progress=progress, bundle=bundle)
    sheet = done.reviewed.written[-1]
    where = f" --district {district}" if district else ""
    closed = in_force(bundle, month, district) if Path(bundle).is_dir() else None
    if closed is not None:
        folder, record = closed
        done.next = [f"{month} is closed (by {record['closed_by']} on {record['closed_at'][:10]}, figures id "
                     f"{record.get('figures_id', '-')}): this review shows its figures as they stand now, and "
                     f"{done.built.out / 'adjustments.csv'} lists what moved since the close, and why",
                     f"to check the close: pound verify {folder} --bundle {bundle}"]
        return done
    if decided:
        done.next = [f"the decisions loaded are in these figures (figures id {done.reviewed.figures_id}); next: "
                     f"pound close --db {db} --month {month}{where} --bundle {bundle} --by \"District Magistrate\""]
        return done
    done.next = [
        f"page 1 of {next(p for p in done.reviewed.written if p.name.startswith('monthly_review'))} is for the "
        f"District Magistrate's meeting (figures id {done.reviewed.figures_id}, a draft until the close)",
        f"next: the decisions go into {sheet}; save it into {Path(bundle) / 'registers'}/ and run this command again",
        f"then: pound close --db {db} --month {month}{where} --bundle {bundle} --by \"District Magistrate\"",
    ]
    return done
