"""pound verify: is a close folder still as it was sealed, and do its input files still give its figures?

The sha256 of every file of the folder is compared with the one close.json recorded: a file
altered, missing or added is named. That checks the sealed pack only, not the registers: a month
whose registers were edited since its close is still "intact" so (the command says so). With the bundle, the month is also rebuilt from the input
files the close names (each must still be in the bundle with the same sha256), with the
readings and the as-of date of the close, and the rebuilt figures are compared with the sealed
ones, close.json's and the sealed extracts' (findings.csv, monthly_accounts.csv,
reconciliation.csv, written again from the rebuild and compared cell by cell), each figure that
differs named (close/rebuilt.py). It also says whether a signed page is kept with the close.

A close of today's format is also checked against its figures id (close/seal.py figures_id_of):
the id its close.json gives now must be the one it was sealed with, the files written before the
pages (`data_files`) must have the hashes the id seals, each page (`pages`, a close since
7 December 2026) must hash as the id seals it once the id is taken back out, and the sealed monthly review must print
the id (its HTML, and the PDF to sign on its first page) and say who closed the month and when as
close.json does; with the bundle, the rebuilt
figures must give the id again. None of this tells a close
rewritten whole, with a new id, from the one signed: only the id on the signed paper does.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.load.closes import CLOSE_FILE, read_close


@dataclass
class Verdict:
    altered: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)      # input files gone or changed in the bundle
    figures: list[str] = field(default_factory=list)     # figures the rebuild does not give again

    @property
    def intact(self) -> bool:
        return not (self.altered or self.missing or self.added or self.inputs or self.figures)

    def lines(self) -> list[str]:
        return ([f"altered: {n}" for n in self.altered] + [f"missing: {n}" for n in self.missing]
                + [f"added: {n}" for n in self.added] + self.inputs + self.figures)


def check_files(folder: Path) -> tuple[dict, Verdict]:
    from pipeline.close.seal import sha256

    folder = Path(folder)
    if not folder.is_dir():
        raise PoundError(f"{folder} is not a folder; give a close folder, BUNDLE/closes/<month>")
    record = read_close(folder)
    sealed: dict[str, str] = record.get("files", {})
    present = {p.name for p in folder.iterdir() if p.name != CLOSE_FILE}
    covered = _covered_files(record)
    v = Verdict()
    for name in sorted(sealed):
        if name not in present:
            v.missing.append(name)
            continue
        digest = sha256(folder / name)
        if digest != sealed[name]:
            v.altered.append(name)
        elif name in covered and digest != covered[name]:
            v.altered.append(f"{name} (not the file the figures id seals: its sha256 differs from the one under "
                             f"data_files in {CLOSE_FILE})")
    v.altered += [f"{CLOSE_FILE} ({name}, whose hash the figures id seals, is not under its files)"
                  for name in sorted(covered.keys() - sealed.keys())]
    v.altered += _page_differences(folder, record, present & sealed.keys() - set(v.altered))
    v.added = sorted(present - sealed.keys() - _signed_later(folder, v))
    v.altered += _id_differences(folder, record, present & sealed.keys() - set(v.altered))
    return record, v


def _page_differences(folder: Path, record: dict, present: set[str]) -> list[str]:
    """Each page the figures id seals (`pages`: hashed with the id pending, close/seal.py) that is not
    as sealed once the id is taken back out of it, or is not under `files`. Nothing for a close made
    before pages were sealed by the id (it has no `pages`, and its id says so if one was taken out)."""
    import hashlib

    from pipeline.close.seal import figures_id_of, page_as_hashed

    pages = record.get("pages")
    if not isinstance(pages, dict) or figures_id_of(record) is None:     # a close of the first format: as it was
        return []
    fid = str(record.get("figures_id") or "")
    files = record.get("files", {}) if isinstance(record.get("files"), dict) else {}
    out = [f"{CLOSE_FILE} ({name}, a page whose hash the figures id seals, is not under its files)"
           for name in sorted(pages.keys() - files.keys())]
    # what else a close writes: the page to sign as PDF and the scan of it signed; a file listed
    # beside them, sealed by nothing but its hash under files, is not the close's
    from pipeline.close.seal import SIGNED_SCAN

    written = pages.keys() | (record.get("data_files") or {}).keys() | {SIGNED_SCAN}
    out += [f"{CLOSE_FILE} ({name} is under its files, but a close writes no such file: it was added after the close)"
            for name in sorted(files.keys() - written)
            if not (name.startswith("monthly_review") and name.endswith(".pdf") and name[:-4] + ".html" in pages)]
    for name in sorted(pages.keys() & present):
        if hashlib.sha256(page_as_hashed((folder / name).read_bytes(), fid)).hexdigest() != pages[name]:
            out.append(f"{name} (not the page the figures id seals: its words, figures or script were changed after "
                       "the close)")
    return out


def _covered_files(record: dict) -> dict[str, str]:
    """The files whose hashes a close's figures id seals (none for a close of the first format)."""
    from pipeline.close.seal import figures_id_of

    files = record.get("data_files")
    if figures_id_of(record) is None:
        return {}
    return files if isinstance(files, dict) else {}


def _id_differences(folder: Path, record: dict, present: set[str]) -> list[str]:
    """Where a close disagrees with its figures id, a line each: the id close.json gives now, if it
    is not the one sealed, and each sealed monthly review (of `present`, the files as sealed
    under files) that does not print the sealed id."""
    from pipeline.close.seal import figures_id_of

    given, sealed_id = figures_id_of(record), record.get("figures_id")
    if given is None:           # a close of the first format: its id covered page 1 alone, and its page printed that
        out = []
        later = [key for key in ("data_files", "pages") if key in record]
        if later:
            out.append(f"{CLOSE_FILE} (it says format {record.get('format')}, but it holds {' and '.join(later)}, which "
                       "only a later pound writes, sealed by a figures id of the whole record)")
        out += [f"{CLOSE_FILE} (it says format {record.get('format')}, but the sealed {name} prints the figures id "
                "of a later pound, which seals the whole record)"
                for name in sorted(n for n in present if n.startswith("monthly_review") and n.endswith(".html"))
                if _LATER_ID.search(_page_text(folder / name))]
        return out
    out = []
    if given != sealed_id:
        out.append(f"{CLOSE_FILE} (its fields and figures give the figures id {given}, not {sealed_id}, the id it "
                   "was sealed with: a field or figure was changed after the close)")
    for name in sorted(n for n in present if n.startswith("monthly_review") and n.endswith(".html")):
        text = _page_text(folder / name)
        if not str(sealed_id) or str(sealed_id) not in text:
            out.append(f"{name} (it does not print the figures id in {CLOSE_FILE}, {sealed_id})")
        flat = re.sub(r"\s+", "", text)
        for shown in _page_one_unshown(record, flat):
            out.append(f"{name} (it does not show page 1's figure as {CLOSE_FILE} seals it: {shown})")
        words = _who_when(record)
        if words not in text:
            # the id says that something changed; the page, sealed with it, can say who or when did
            out.append(f"{CLOSE_FILE} (closed_by or closed_at: the sealed {name} does not say the month was closed "
                       f"{words.removeprefix('yes, ')})")
    for name in sorted(n for n in present if n.startswith("monthly_review") and n.endswith(".pdf")):
        first = _first_page_text(folder / name)
        if not str(sealed_id) or str(sealed_id) not in first:
            out.append(f"{name} (the page to sign does not print the figures id in {CLOSE_FILE}, {sealed_id})")
        # the page to sign is sealed by its hash under files alone (it prints the id): its figures
        # are read off it, as the HTML's are
        for shown in _page_one_unshown(record, re.sub(r"\s+", "", first)):
            out.append(f"{name} (the page to sign does not show page 1's figure as {CLOSE_FILE} seals it: {shown})")
    return out


# a figures id of as many digits as today's (seal.ID_DIGITS), as a sealed page prints it
_LATER_ID = re.compile(r"[Ff]igures\s+id\s*[0-9a-f]{16}(?![0-9a-f])")


def _page_text(path: Path) -> str:
    """A sealed page's text, its tags taken out and its entities read (as a reader sees it)."""
    page = path.read_text(encoding="utf-8", errors="replace")
    return html.unescape(re.sub(r"<[^>]*>", "", page))


def _first_page_text(path: Path) -> str:
    """The text of a sealed PDF's first page, where page 1 prints the figures id ("" when it cannot be read)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        text = PdfReader(path).pages[0].extract_text() or ""
    except (PyPdfError, ValueError, KeyError, TypeError, IndexError, OSError):     # not a PDF pypdf can read
        return ""
    return as_typed(text)


def as_typed(text: str) -> str:
    """Text taken from a PDF with its ligatures undone: the page's font sets "ff" of an id as one
    glyph, which pypdf gives back as U+FB00."""
    return unicodedata.normalize("NFKC", text)


def _page_one_unshown(record: dict, flat: str) -> list[str]:
    """The page-1 figures close.json seals (under its figures id) that a sealed review's text, its
    white space taken out, does not show beside their labels: a figure edited on the page."""
    out = []
    for f in record.get("signed", []):
        label, text = str(f.get("label", "")), str(f.get("text", ""))
        if label and text and re.sub(r"\s+", "", html.unescape(label) + text) not in flat:
            out.append(f"{label}: {text}")
    return out


def _who_when(record: dict) -> str:
    """How the sealed review says who closed the month and when (reports/page.py closed_words)."""
    from pipeline.reports.page import closed_words

    return closed_words(record["closed_by"], dt.datetime.fromisoformat(record["closed_at"]), None, 1, None)


def _signed_later(folder: Path, v: Verdict) -> set[str]:
    """The scan of the signed page added after the close, checked against signed.json (its hash,
    and the hash of the close.json it was added to); the names it accounts for."""
    from pipeline.close.seal import SIGNED_SCAN, SIGNED_SEAL, sha256

    seal_path = folder / SIGNED_SEAL
    if not seal_path.is_file():
        return set()
    try:
        seal = json.loads(seal_path.read_text(encoding="utf-8"))
    except ValueError:
        v.altered.append(SIGNED_SEAL)
        return {SIGNED_SEAL, SIGNED_SCAN}
    if not (folder / SIGNED_SCAN).is_file():
        v.missing.append(SIGNED_SCAN)
    elif sha256(folder / SIGNED_SCAN) != seal.get("sha256"):
        v.altered.append(f"{SIGNED_SCAN} (the signed page differs from the scan sealed in {SIGNED_SEAL})")
    if sha256(folder / CLOSE_FILE) != seal.get("close_json_sha256"):
        v.altered.append(f"{CLOSE_FILE} (it is not the close.json the signed page was added to)")
    return {SIGNED_SEAL, SIGNED_SCAN}


def format_note(record: dict) -> str:
    """What verify says of a close sealed by an earlier pound (empty for today's format)."""
    from pipeline.close.seal import figures_id_of

    if figures_id_of(record) is not None:
        return ""
    return (f"sealed by an earlier pound ({record.get('format')}): its figures id covers page 1 alone, so the "
            f"fields of {CLOSE_FILE} (who closed it, when, the note) are checked by no id; compare them with the "
            "signed page")


def signed_state(folder: Path, record: dict) -> str:
    """Whether the close keeps the page the District Magistrate signed, for verify's verdict."""
    from pipeline.close.seal import SIGNED_SCAN, SIGNED_SEAL

    folder = Path(folder)
    if SIGNED_SCAN in record.get("files", {}):
        return "signed page: kept (sealed with the close)"
    if (folder / SIGNED_SEAL).is_file():
        return f"signed page: kept (added after the close, sealed in {SIGNED_SEAL})"
    return "no signed page (none was sealed with the close; pound close --signed SCAN adds one)"
