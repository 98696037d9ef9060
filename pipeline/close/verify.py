"""pound verify: is a close folder still as it was sealed, and do its input files still give its figures?

The sha256 of every file of the folder is compared with the one close.json recorded: a file
altered, missing or added is named. That checks the sealed pack only, not the registers: a month
whose registers were edited since its close is still "intact" so (the command says so). With the bundle, the month is also rebuilt from the input
files the close names (each must still be in the bundle with the same sha256), with the
readings and the as-of date of the close, and the rebuilt figures are compared with the sealed
ones, close.json's and the sealed extracts' (findings.csv, monthly_accounts.csv,
reconciliation.csv, written again from the rebuild and compared cell by cell), each figure that
differs named. It also says whether a signed page is kept with the close.

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

import csv
import datetime as dt
import html
import json
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.page_measures import by_measure
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


# each sealed table's rows are matched by these columns; every other column is compared
_KEYS = {"accounts": ("pound_id",), "findings": ("rule_id", "subject_id"),
         "reconciliation": ("ledger", "local_authority_id", "reference", "head")}


def differences(record: dict, rebuilt: dict) -> list[str]:
    """Every sealed figure the rebuild does not give again, a line each: the accounts, the findings
    with their decisions, the reconciliation, and page 1's figures (the page signed)."""
    month = record["month"]
    sealed = dict(record.get("figures", {}), signed=record.get("signed", []))
    out = []
    for table, keys in _KEYS.items():
        before = {tuple(r.get(k) for k in keys): r for r in sealed.get(table, [])}
        after = {tuple(r.get(k) for k in keys): r for r in rebuilt[table]}
        for key in sorted(before.keys() | after.keys(), key=str):
            name = " ".join(str(k) for k in key if k is not None)
            b, a = before.get(key), after.get(key)
            if b is None or a is None:
                out.append(f"rebuilt figure differs: {month} {table} {name}: "
                           + ("sealed, not rebuilt" if a is None else "rebuilt, not sealed"))
                continue
            for column in sorted(b.keys() & a.keys()):
                if b[column] != a[column]:
                    out.append(f"rebuilt figure differs: {month} {table} {name} {column}: sealed {b[column]}, "
                               f"rebuilt {a[column]}")
    if "signed" not in record:           # a close made before page 1 was sealed
        return out
    before = by_measure(sealed["signed"])      # by measure id, a close's of before the ids by its labels
    for m, f in by_measure(rebuilt["signed"]).items():
        if before.get(m, {}).get("value") != f["value"]:
            was = before[m]["text"] if m in before else "not sealed"
            out.append(f"rebuilt figure differs: {month} page 1 {f['label']}: sealed {was}, rebuilt {f['text']}")
    return out


# the extracts a close seals (seal._write_extracts), each with the columns that name its rows
EXTRACTS = {"monthly_accounts.csv": ("pound_id",), "findings.csv": ("rule_id", "subject_id"),
            "reconciliation.csv": ("ledger", "local_authority_id", "reference", "head")}


def _csv_rows(path: Path, keys: tuple[str, ...]) -> dict[tuple, dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out: dict[tuple, dict] = {}
    for r in rows:
        key = tuple(r.get(k) or "" for k in keys)
        n = sum(1 for k in out if k[:-1] == key)        # a key met twice is told apart by its place
        out[(*key, n)] = r
    return out


def extract_differences(sealed: Path, rebuilt: Path) -> list[str]:
    """Every figure of the sealed extracts (the CSVs of the close folder) that the same extracts
    written from the rebuild do not give again, a line each, naming the file, the row and the column."""
    out = []
    for name, keys in EXTRACTS.items():
        if not (sealed / name).is_file() or not (rebuilt / name).is_file():
            continue
        before, after = _csv_rows(sealed / name, keys), _csv_rows(rebuilt / name, keys)
        for key in sorted(before.keys() | after.keys(), key=str):
            row = " ".join(str(k) for k in key[:-1] if k) + (f" (row {key[-1] + 1} of that name)" if key[-1] else "")
            b, a = before.get(key), after.get(key)
            if b is None or a is None:
                out.append(f"sealed file differs from the rebuild: {name} {row}: "
                           + ("sealed, not rebuilt" if a is None else "rebuilt, not sealed"))
                continue
            for column in [c for c in b if c in a and b[c] != a[c]]:
                out.append(f"sealed file differs from the rebuild: {name} {row} {column}: sealed {b[column] or 'blank'}, "
                           f"rebuilt {a[column] or 'blank'}")
    return out


def rebuilt_id_differences(record: dict, rebuilt: dict) -> list[str]:
    """The figures id the close would have had with the rebuilt figures, when it is not the id
    sealed (one line; none for a close of the first format)."""
    from pipeline.close.seal import figures_id_of
    from pipeline.reports.stamp import figures_id

    figures = dict(rebuilt)
    signed = figures.pop("signed")
    again = figures_id_of(json.loads(json.dumps(dict(record, figures=figures, signed=signed,
                                                     page_one_id=figures_id(signed)), ensure_ascii=False)))
    if again is None or again == record.get("figures_id"):
        return []
    return [f"rebuilt figures id differs: sealed {record.get('figures_id')} (the id on the signed page), "
            f"rebuilt {again}"]


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


def rebuild(record: dict, bundle: Path, verdict: Verdict, folder: Path | None = None) -> None:
    """Rebuild the month from the input files the close names; adds what does not match to `verdict`."""
    from pipeline.build import build
    from pipeline.close.seal import sealed_figures
    from pipeline.core.params import PARAMS, Parameters
    from pipeline.core.progress import QUIET
    from pipeline.load import connection
    from pipeline.load.bundle import find_sources, read_source
    from pipeline.load.closes import insert_close
    from pipeline.load.ingest import load_source

    bundle = Path(bundle)
    sources, _, _ = find_sources(bundle)
    by_label = {s.label: s for s in sources}
    wanted = record.get("inputs", [])
    chosen = []
    for f in wanted:
        src = by_label.get(f["file"])
        if src is None:
            verdict.inputs.append(f"input missing from the bundle: {f['file']}")
            continue
        if read_source(src).sha256 != f["sha256"]:
            verdict.inputs.append(f"input changed since the close: {f['file']} (its sha256 differs)")
            continue
        chosen.append(src)
    from pipeline.close.logs import changed_logs

    verdict.inputs += changed_logs(record, bundle)
    if verdict.inputs:
        return
    known = {p.name for p in PARAMS}
    values = {n: json.loads(v) for n, v in record.get("parameters", {}).items() if n in known}
    params = Parameters(values, as_of=dt.date.fromisoformat(record["as_of"]), source="the close")
    scratch = Path(tempfile.mkdtemp(prefix="pound-verify-"))
    try:
        con = connection.connect(scratch / "verify.duckdb")
        try:
            # the files in the order they were loaded when the month was closed
            for src in sorted(chosen, key=lambda s: [f["file"] for f in wanted].index(s.label)):
                res = load_source(con, src, bundle, QUIET, as_of=params.as_of)
                if res.status == "rejected":
                    verdict.inputs.append(f"input no longer loads: {src.label}")
            if verdict.inputs:
                return
            insert_close(con, 1, bundle, record)
            build(con, params)
            rebuilt = sealed_figures(con, record["month"], record.get("district"))
            verdict.figures += differences(record, rebuilt)
            verdict.figures += rebuilt_id_differences(record, rebuilt)
            if folder is not None:
                from pipeline.close.seal import _write_extracts

                again = scratch / "extracts"
                again.mkdir()
                _write_extracts(con, record["month"], record.get("district"), again)
                verdict.figures += extract_differences(Path(folder), again)
        finally:
            con.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
