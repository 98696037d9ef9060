"""Close a month (seal what the District Magistrate signs into BUNDLE/closes/), and verify a close."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Closed:
    """A close made: its folder, the figures it sealed (the page signed) as lines. `added`: the
    signed scan added to the month's close in force (no new close made)."""
    folder: Path
    month: str
    district: str | None
    record: dict
    lines: list[str] = field(default_factory=list)     # what was sealed, and where the page to sign is (stderr)
    added: Path | None = None

    @property
    def figures_id(self) -> str:
        return self.record.get("figures_id", "")

    @property
    def moved(self) -> list[str]:
        """The page-1 figures that moved since the review printed for the meeting, a line each."""
        return list(self.record.get("moved", []))

    @property
    def signed(self) -> list[tuple[str, str]]:
        """The figures sealed (page 1 as signed): label, value as shown."""
        return [(f["label"], f["text"]) for f in self.record.get("signed", [])]

    @property
    def page(self) -> Path:
        """The page to sign: the sealed monthly review as PDF."""
        return next(iter(sorted(self.folder.glob("monthly_review*.pdf"))), self.folder)


@dataclass
class Verified:
    """A close checked: intact, or the lines naming what differs."""
    folder: Path
    intact: bool
    with_bundle: bool
    lines: list[str] = field(default_factory=list)
    signed: str = ""          # whether a signed page is kept (close/verify.py signed_state)
    note: str = ""            # of a close sealed by an earlier pound (close/verify.py format_note)

    def verdict(self) -> list[str]:
        """The verdict as said to the user: intact in one sentence (saying what was checked), or the
        lines naming what differs, a line each."""
        if not self.intact:
            return list(self.lines)
        note = [self.note] if self.note else []
        if self.with_bundle:
            return ["intact (the input files rebuild the sealed figures)", *note]
        # "intact" alone reads as "all clear": it says nothing of the registers as they stand
        return ["intact: checked the sealed pack only (every file as close.json recorded it, and close.json as its "
                "figures id seals it). The registers were not checked: --bundle BUNDLE also checks the input files "
                "as they stand against the sealed hashes and rebuilds the month's figures from them", *note]


def close(db: Path, bundle: Path, month: str, by: str, district: str | None = None, note: str | None = None,
          reopen: str | None = None, signed: Path | None = None, review: Path | None = None) -> Closed:
    """Seal the month into BUNDLE/closes/ from the last build, with its review as HTML and PDF (the
    page to sign) and, given `signed`, the scan of the signed page. A month already closed, given
    `signed` and no `reopen`: the scan is added to its close in force (`Closed.added`), nothing
    else is sealed. PoundError (nothing written) when it may not be closed; StaleFigures (exit 2)
    when files were loaded after the last build. `review`: the folder of the month's review (default
    month_<MONTH>/ beside the database, where pound month writes it), whose pages of the same build
    are sealed as they are, not rendered again."""
    from pipeline.close.seal import close_month, signed_lines
    from pipeline.load.closes import CLOSE_FILE, in_force

    if signed is not None and not reopen:
        found = in_force(bundle, month, district)
        if found:
            folder, record = found
            kept = add_signed(bundle, month, signed, district)
            return Closed(folder, month, record.get("district"), record, [
                f"the signed page is kept with the close, sealed by its hash: pound verify {folder} checks it"],
                added=kept)
    from pipeline.steps.month import folder_of

    folder = close_month(Path(db), Path(bundle), month, by, district, note, reopen, signed=signed,
                         review=review or folder_of(Path(db).parent, month))
    record = json.loads((folder / CLOSE_FILE).read_text(encoding="utf-8"))
    done = Closed(folder, month, record.get("district"), record)
    done.lines = [*done.moved, *signed_lines(record)]
    done.lines.append(f"figures id {done.figures_id}; the page to sign: {done.page}")
    return done


def add_signed(bundle: Path, month: str, scan: Path, district: str | None = None) -> Path:
    """Keep the scan of the signed page with the month's close in force (made without one); returns
    where it is kept."""
    from pipeline.close.seal import add_signed as add
    from pipeline.core.errors import PoundError
    from pipeline.load.closes import in_force

    found = in_force(bundle, month, district)
    if not found:
        raise PoundError(f"--signed: {month} has not been closed in {bundle}; close it with --signed, or first close it")
    return add(found[0], scan)


def verify(folder: Path, bundle: Path | None = None) -> Verified:
    """Check the close folder against its close.json; with `bundle`, also check the input files as
    they stand against the sealed hashes and rebuild the month's figures from them."""
    from pipeline.close.rebuilt import rebuild
    from pipeline.close.verify import check_files, format_note, signed_state

    folder = Path(folder)
    record, verdict = check_files(folder)
    if bundle is not None and not (verdict.missing or verdict.added):
        rebuild(record, Path(bundle), verdict, folder)
    return Verified(folder, verdict.intact, bundle is not None, verdict.lines(), signed_state(folder, record),
                    format_note(record))
