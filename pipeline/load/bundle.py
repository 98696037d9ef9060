"""Find the files of a bundle and read each one into a frame of text cells.

A bundle is a folder with reference/, registers/ and ledgers/ (see the README).
CSV files are matched by folder and name prefix; every sheet of an .xlsx
workbook anywhere in the bundle whose name is a register name is one more file
of that register. Whatever the source, a file becomes a table whose cells are
all text, with normalised column names and a `_row` column holding the row
number a spreadsheet would show (the header is row 1). Here a file's bytes, its
encoding and its header are checked; a plain CSV file (one that DuckDB's reader
reads exactly as Python's csv and pandas would) is then left for DuckDB to read
(cells.py), and any other file or sheet is read here into a pandas frame.
Turning text into dates, paise and counts happens later, in values.py, the same
way for every source.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.errors import PoundError, Problem
from pipeline.core.registers import BY_NAME, OWN_SHEETS, REFERENCE, REGISTERS, Register
from pipeline.load.encodings import not_utf8_problem, utf16_problem
from pipeline.load.folder import NotABundle, bundle_files
from pipeline.load.plaincsv import PlainCsv, plain_csv
from pipeline.load.sheets import formulas_without_values, rows_of, sheet_names, sheets_problem, workbook_problem

if TYPE_CHECKING:      # pandas is imported only when a file is read here, not by DuckDB (0.5 s)
    import pandas as pd

ROW = "_row"
# Files a bundle may carry beside its registers: pound synth's answer key, a readme, bundle.toml.
BUNDLE_NOTES = ("planted.csv", "README.txt", "README.md", "bundle.toml")
# The folder of the months the District Magistrate closed (pound close): part of the bundle, but
# sealed evidence, not registers; closes.py reads it.
CLOSES = "closes"
FOLDERS = frozenset(r.folder for r in REGISTERS)      # reference, registers, ledgers


@dataclass
class Source:
    """One file (or one workbook sheet) of one register."""

    register: Register
    path: Path
    label: str                 # what messages call it: "registers/sales_2026.csv"
    sheet: str | None = None

    def __str__(self) -> str:
        return self.label


@dataclass
class Read:
    """The text content of a source, or the problems that stopped it being read."""

    source: Source
    frame: pd.DataFrame | None   # the cells, when read here (a sheet, or a CSV file that is not plain)
    sha256: str
    problems: list[Problem]
    extra_columns: list[str]
    plain: PlainCsv | None = None     # a plain CSV file, for DuckDB to read (cells.py)
    in_db: bool = False               # its cells are in the table cells.CELLS


def find_sources(bundle: Path) -> tuple[list[Source], list[str], list[Problem]]:
    """The files of a bundle in load order, notes about files passed over, and the
    problems of workbooks that could not be opened at all."""
    if not bundle.exists():
        raise PoundError(f"bundle folder {bundle} does not exist")
    if not bundle.is_dir():
        raise PoundError(f"{bundle} is not a folder; give the folder that holds reference/, registers/ and ledgers/")
    if bundle.name in FOLDERS and not any((bundle / f).is_dir() for f in FOLDERS) \
            and any((bundle.parent / f).is_dir() for f in FOLDERS - {bundle.name}):
        raise PoundError(f"{bundle} is the {bundle.name}/ folder of a bundle; give the bundle folder that holds it: "
                         f"{bundle.parent}")
    found: dict[str, list[Source]] = {r.name: [] for r in REGISTERS}
    notes: list[str] = []
    broken: list[Problem] = []
    for path in bundle_files(bundle):
        rel = path.relative_to(bundle).as_posix()
        if path.relative_to(bundle).parts[0] == CLOSES:
            continue                                # sealed closes, not registers
        suffix = path.suffix.lower()
        if path.parent == bundle and path.name in BUNDLE_NOTES:
            continue                                # the bundle's own notes, not registers
        if suffix == ".xlsx":
            if path.name.startswith("~$"):      # Excel's lock file while a workbook is open
                continue
            parts = path.relative_to(bundle).parts
            if len(parts) > 1 and parts[0] not in FOLDERS:
                # a workbook in another folder (demo/, a report's output) is not a register of the
                # bundle: a project's folder holding one is no bundle for it
                notes.append(f"{rel}: not in reference/, registers/ or ledgers/; passed over")
                continue
            too_large = workbook_problem(path, rel)
            if too_large is not None:
                broken.append(too_large)
                continue
            try:
                sheets = sheet_names(path)
            except Exception as exc:  # corrupt, protected or not really a workbook
                broken.append(Problem(rel, None, None, None,
                                      f"cannot be opened as an Excel workbook ({exc.__class__.__name__}); "
                                      "save it again from the spreadsheet as .xlsx"))
                continue
            if (alike := sheets_problem(sheets, rel)) is not None:
                broken.append(alike)
                continue
            for sheet in sheets:
                reg = BY_NAME.get(sheet.strip().lower())
                if reg is None and sheet in OWN_SHEETS:
                    continue                    # a sheet of our own workbooks: help, or what is due
                if reg is None:
                    notes.append(f"{rel}: sheet {sheet!r} is not a register name; passed over")
                    continue
                found[reg.name].append(Source(reg, path, f"{rel} [sheet {sheet}]", sheet))
        elif suffix == ".csv":
            reg = _register_for_csv(path.relative_to(bundle))
            if reg is None:
                notes.append(f"{rel}: not a register of the bundle (see the README for the file names); passed over")
                continue
            found[reg.name].append(Source(reg, path, rel))
        else:
            notes.append(f"{rel}: not a CSV or .xlsx file; passed over")
    sources = [s for r in REGISTERS for s in found[r.name]]
    if not sources and not broken and not any((bundle / f).is_dir() for f in FOLDERS):
        raise NotABundle(bundle)
    return sources, notes, broken


def missing_reference(sources: list[Source]) -> list[str]:
    """Reference tables that the bundle does not provide."""
    have = {s.register.name for s in sources}
    return [r.name for r in REFERENCE if r.name not in have]


def _register_for_csv(rel: Path) -> Register | None:
    if len(rel.parts) != 2:
        return None
    folder, name = rel.parts[0], rel.stem.lower()
    for reg in REGISTERS:
        if reg.folder != folder:
            continue
        if name == reg.name or (not reg.exact_name and name.startswith(reg.name)):
            return reg
    return None


def read_source(source: Source, in_python: bool = False) -> Read:
    """The checked bytes and header of a source, and its cells unless DuckDB is to read them
    (a plain CSV file; `in_python` reads every CSV file here, as cells.py does when DuckDB cannot)."""
    if source.sheet is None:
        return _read_csv(source, in_python)
    return _read_sheet(source)


def _normalise_header(source: Source, header: list[str]) -> tuple[list[str], list[Problem]]:
    names = [str(h if h is not None else "").strip().lower() for h in header]
    # Spreadsheets often carry empty columns at the right; they get a private name.
    names = [n or f"_unnamed_{i + 1}" for i, n in enumerate(names)]
    problems = []
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n and n in seen:
            problems.append(Problem(source.label, 1, n, None,
                                    f"appears twice in the header (columns {seen[n] + 1} and {i + 1}); each column name must appear once"))
        seen.setdefault(n, i)
    missing = [c for c in source.register.required_names if c not in seen]
    if missing:
        optional = [c for c in source.register.names if c not in source.register.required_names]
        problems.append(Problem(source.label, 1, None, None,
                                "the header lacks the column(s) " + ", ".join(missing)
                                + f"; a {source.register.name} file must have the columns "
                                + ", ".join(source.register.required_names)
                                + (f" (and may have {', '.join(optional)})" if optional else "")))
    return names, problems


def _read_csv(source: Source, in_python: bool = False) -> Read:
    data = source.path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    utf16 = utf16_problem(data)
    if utf16:
        return Read(source, None, digest, [Problem(source.label, None, None, None, utf16)], [])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        row, why = not_utf8_problem(data, exc)
        return Read(source, None, digest, [Problem(source.label, row, None, None, why)], [])
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text or text.isspace():           # nothing but whitespace
        return Read(source, None, digest, [Problem(source.label, None, None, None,
                                                   "is empty; expected a header row naming the columns")], [])
    try:
        header = next(csv.reader(_lines(text)))
        names, problems = _normalise_header(source, header)
        if problems:
            return Read(source, None, digest, problems, [])
        shape = None if in_python else plain_csv(data, names)
        if shape is not None:
            return Read(source, None, digest, [], _extra(source, names), plain=shape)
        short = _short_rows(text, len(names))
    except _Unreadable as exc:
        return Read(source, None, digest, [Problem(source.label, exc.row, None, None, exc.why)], [])
    except csv.Error as exc:
        return Read(source, None, digest, [Problem(source.label, 1, None, None, f"could not be read as CSV: {exc}")], [])
    if short:
        return Read(source, None, digest, [Problem(source.label, row, None, None,
                                                   f"has {cells} cell(s) but the header names {len(names)} columns; "
                                                   "a row may not stop early (a missing comma?)")
                                           for row, cells in short[:50]], [])
    import pandas as pd

    try:
        frame = pd.read_csv(io.StringIO(text), header=None, skiprows=1, names=names, dtype=str,
                            keep_default_na=False, na_filter=False, skip_blank_lines=False,
                            engine="c")
    except pd.errors.ParserError as exc:
        row, why = _parser_message(exc, len(names))
        return Read(source, None, digest, [Problem(source.label, row, None, None, f"could not be read as CSV: {why}")], [])
    frame.insert(0, ROW, range(2, len(frame) + 2))
    return _finish(source, frame, digest, names)


def _lines(text: str):
    """The lines of the text, as io.StringIO(text) gives them (each ending in \\n), without copying it all."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def _short_rows(text: str, width: int) -> list[tuple[int, int]]:
    """(row, cells) of every record with some cells but fewer than the header names.

    pandas would pad such a row with blanks, and a blank means "not recorded": a row
    cut short by a lost comma would load with its last values silently missing.
    """
    out = []
    rows = csv.reader(io.StringIO(text))
    i = 0
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return out
        except csv.Error as exc:      # a cell longer than csv's limit: a quote never closed
            raise _Unreadable(i + 1, f"could not be read as CSV ({exc}); a cell that long is most likely "
                                     "a quote (\") that is never closed") from None
        i += 1
        if 0 < len(row) < width and any(cell.strip() for cell in row):
            out.append((i, len(row)))


class _Unreadable(Exception):
    def __init__(self, row: int, why: str):
        super().__init__(why)
        self.row, self.why = row, why


def _parser_message(exc: Exception, width: int) -> tuple[int | None, str]:
    """pandas' tokenizer error as (row, plain words)."""
    text = str(exc).strip()
    # pandas: "Error tokenizing data. C error: Expected 4 fields in line 7, saw 5" (line counts the header)
    if "Expected" in text and "fields in line" in text:
        parts = text.split("C error:")[-1].replace(",", "").split()
        try:
            line, saw = int(parts[parts.index("line") + 1]), int(parts[-1])
            return line, f"it has {saw} cells but the header names {width} columns (a stray comma or quote?)"
        except (ValueError, IndexError):
            pass
    return None, text


def _extra(source: Source, names: list[str]) -> list[str]:
    """The file's columns beyond the register's (kept as text in _extra); unnamed ones are dropped."""
    wanted = set(source.register.names)
    return [n for n in names if n not in wanted and not n.startswith("_unnamed_")]


def _finish(source: Source, frame: pd.DataFrame, digest: str, names: list[str]) -> Read:
    extra = _extra(source, names)
    # A column a file may leave out (correction_note, void) is blank when it does, or takes the
    # cells of the column it stands in for (Column.absent_as).
    for col in source.register.columns:
        if col.name not in frame.columns:
            frame[col.name] = frame[col.absent_as] if col.absent_as in frame.columns else ""
    # Wholly blank rows are dropped later (values.py), keeping every row's number.
    frame = frame[[ROW] + source.register.names + extra]
    return Read(source, frame, digest, [], extra)


def _read_sheet(source: Source) -> Read:
    import openpyxl

    wb = openpyxl.load_workbook(source.path, read_only=True, data_only=True)
    try:
        rows = rows_of(source, wb[source.sheet])
    finally:
        wb.close()
    if isinstance(rows, Problem):
        return Read(source, None, "", [rows], [])
    unsaved = formulas_without_values(source, rows)
    if unsaved:
        return Read(source, None, "", unsaved, [])
    # Leading empty rows are allowed; the header is the first row with text.
    first = next((i for i, r in enumerate(rows) if any(v.strip() for v in r)), None)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    digest = hashlib.sha256(buf.getvalue().encode("utf-8")).hexdigest()
    if first is None:
        return Read(source, None, digest, [Problem(source.label, None, None, None,
                                                   "is empty; expected a header row naming the columns")], [])
    names, problems = _normalise_header(source, rows[first])
    if problems:
        problems = [Problem(p.file, first + 1, p.column, p.value, p.message) for p in problems]
        return Read(source, None, digest, problems, [])
    width = len(names)
    body = [(r + [""] * width)[:width] for r in rows[first + 1:]]
    overflow = [first + 2 + i for i, r in enumerate(rows[first + 1:]) if any(v.strip() for v in r[width:])]
    if overflow:
        return Read(source, None, digest, [Problem(source.label, overflow[0], None, None,
                                                   f"has text to the right of the last named column ({len(overflow)} row(s)); give every column a header")], [])
    import pandas as pd

    frame = pd.DataFrame(body, columns=names, dtype=str)
    frame.insert(0, ROW, range(first + 2, first + 2 + len(body)))
    return _finish(source, frame, digest, names)
