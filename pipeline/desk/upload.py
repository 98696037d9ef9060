"""A file added from the browser: a keeper's workbook, a ledger workbook, the filled-in review
workbook, or a register's CSV file, saved into the bundle's registers/ or ledgers/ under its own
name. The bytes are written to a hidden file in that folder (the loader passes over hidden files),
checked there, and renamed onto the file's own name: a refused file, a failure or a kill leaves the
bundle as it was, and nothing is ever written over a file of another name."""

from __future__ import annotations

import os
import tempfile
import unicodedata
from pathlib import Path
from typing import NamedTuple

from pipeline.core.errors import PoundError
from pipeline.core.registers import BY_NAME, OWN_SHEETS, REGISTERS

MAX_BYTES = 50 * 1024 * 1024        # the largest file taken; a district's month of registers is a few MB
FOLDERS = ("registers", "ledgers")
DECISIONS = "finding_reviews"       # the register of the District Magistrate's decisions


def not_yours(name: str, what: str, doing: str = "add a file holding it (or record the decisions on this page)",
              nothing: str = "saved") -> PoundError:
    """A file of decisions refused to a person who may not decide (adding it, replacing it, removing it)."""
    return PoundError(f"{name}: {what} is the District Magistrate's: only a person with the role dm may {doing}; "
                      f"nothing was {nothing}")


def checked_name(name: str | None) -> str:
    """The file's own name, or PoundError when it is none, or could climb out of its folder."""
    name = (name or "").strip()
    if not name:
        raise PoundError("choose a file to add: a register workbook (.xlsx) or a register's CSV file")
    if ("/" in name or "\\" in name or name in (".", "..") or name.startswith(".") or ":" in name
            or len(name) > 200 or any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp")
                                      for c in name)):
        raise PoundError(f"{name!r} is not a plain file name (no folders, no leading dot); rename the file "
                         "and add it again")
    if Path(name).suffix.lower() not in (".xlsx", ".csv"):
        raise PoundError(f"{name}: not a register workbook (.xlsx) or CSV file; nothing was saved")
    return name


def _register_of_csv(name: str):
    stem = Path(name).stem.lower()
    for reg in REGISTERS:
        if reg.folder in FOLDERS and (stem == reg.name or (not reg.exact_name and stem.startswith(reg.name))):
            return reg
    return None


def _folder_of_workbook(path: Path, name: str, may_decide: bool = True) -> str:
    import openpyxl

    from pipeline.load.sheets import sheets_problem, workbook_problem

    too_large = workbook_problem(path, name)
    if too_large is not None:
        raise PoundError(f"{name}: {too_large.message}; nothing was saved")
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            sheets = list(wb.sheetnames)
        finally:
            wb.close()
    except Exception:
        raise PoundError(f"{name}: cannot be opened as an Excel workbook; save it again from the spreadsheet "
                         "as .xlsx; nothing was saved") from None
    if (alike := sheets_problem(sheets, name)) is not None:
        raise PoundError(f"{name}: {alike.message}; nothing was saved")
    named = [(s, BY_NAME.get(s.strip().lower())) for s in sheets if s not in OWN_SHEETS]
    regs = [r for _, r in named]
    folders = {r.folder for r in regs if r is not None}
    if not folders & set(FOLDERS):
        raise PoundError(f"{name}: none of its sheets is named as a register or ledger (sheets: "
                         f"{', '.join(sheets)}); nothing was saved")
    # the reference tables (rates, pounds, officials, ...) are kept in reference/ by whoever keeps
    # them: a workbook added here, a keeper's say, must not change the rates the accounts use
    reference = [s for s, r in named if r is not None and r.folder not in FOLDERS]
    if reference:
        raise PoundError(f"{name}: its sheet {reference[0]!r} is a reference table, kept in the bundle's reference/ "
                         "folder and not added from the desk; take the sheet out of the workbook and add it again; "
                         "nothing was saved")
    if not may_decide and any(r is not None and r.name == DECISIONS for r in regs):
        raise not_yours(name, f"its sheet of decisions ({DECISIONS})")
    return "ledgers" if folders == {"ledgers"} else "registers"


def holds_decisions(path: Path) -> bool:
    """Whether the bundle's file at `path` is one of decisions: a CSV of the register finding_reviews,
    or a workbook with its sheet (one that cannot be opened is said not to)."""
    if path.suffix.lower() == ".csv":
        reg = _register_of_csv(path.name)
        return reg is not None and reg.name == DECISIONS
    import openpyxl

    try:
        wb = openpyxl.load_workbook(path, read_only=True)
        try:
            return any(s.strip().lower() == DECISIONS for s in wb.sheetnames)
        finally:
            wb.close()
    except Exception:
        return False


class Saved(NamedTuple):
    path: Path
    replaced: bool          # a file of the same name was there, and this one took its place


def save(bundle: Path, name: str | None, stream, limit: int = MAX_BYTES, loaded: frozenset[str] = frozenset(),
         may_decide: bool = True) -> Saved:
    """Save an uploaded file into the bundle; returns where, and whether it replaced a file of the
    same name (one that was refused, say). PoundError, with nothing saved, when the file is refused,
    or would take the place of a file already loaded (`loaded`: their paths in the bundle, as
    registers/impoundments.csv): the database and the closes name those files by their contents.
    A workbook with a reference table's sheet is refused; so is a file of decisions (the register
    finding_reviews) unless `may_decide` (the person adding it may decide: people.py)."""
    name = checked_name(name)
    suffix = Path(name).suffix.lower()
    if suffix == ".csv":
        reg = _register_of_csv(name)
        if reg is None:
            raise PoundError(f"{name}: not the name of a register or ledger file (impoundments.csv, "
                             "releases_2026-11.csv, dm_deposit.csv ...); nothing was saved")
        if reg.name == DECISIONS and not may_decide:
            raise not_yours(name, "a file of decisions (finding_reviews)")
        folder = reg.folder
    else:
        folder = "registers"               # settled once the workbook's sheets are read
    staging = Path(bundle) / "registers"
    staging.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".upload-", suffix=suffix, dir=staging)
    tmp = Path(tmp_name)
    try:
        written = 0
        with os.fdopen(fd, "wb") as f:
            while chunk := stream.read(1 << 16):
                written += len(chunk)
                if written > limit:
                    raise PoundError(f"{name}: larger than {limit // (1024 * 1024)} MB; nothing was saved")
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        if written == 0:
            raise PoundError(f"{name}: the file is empty; nothing was saved")
        if suffix == ".xlsx":
            folder = _folder_of_workbook(tmp, name, may_decide)
        if (Path(bundle) / folder).is_symlink():
            raise PoundError(f"{name}: the bundle's {folder}/ is a link to another folder; nothing was saved")
        target_dir = (Path(bundle) / folder).resolve()
        target = target_dir / name
        if target.parent != target_dir or target.is_symlink() or target.is_dir():
            raise PoundError(f"{name}: cannot be saved in {folder}/; nothing was saved")
        if not may_decide and target.is_file() and holds_decisions(target):
            raise not_yours(name, f"{folder}/{name}, a file of decisions it would replace,")
        if f"{folder}/{name}".casefold() in {f.casefold() for f in loaded}:     # as a file system blind to case sees it
            stem, ext = Path(name).stem, Path(name).suffix
            raise PoundError(f"{name}: {folder}/{name} has been loaded already and is kept as it was loaded (the "
                             "database and any close name it by its contents); a correction goes in a file of its own, "
                             f"for example {stem}_corrections{ext}, with a correction_note on each row; nothing was saved")
        target_dir.mkdir(parents=True, exist_ok=True)
        replaced = target.exists()
        os.chmod(tmp, bundle_mode(target_dir))
        os.replace(tmp, target)           # onto its own name only: atomic, within the bundle's file system
        return Saved(target, replaced)
    finally:
        tmp.unlink(missing_ok=True)


def bundle_mode(folder: Path) -> int:
    """The permissions of a file added to `folder`: those of its folder, without the right to run
    (a folder the office's group may write gives files the group may write), not the private
    ones of the temporary file it was written as."""
    return Path(folder).stat().st_mode & 0o666


def not_saved(bundle: Path, name: str, exc: OSError) -> str:
    """What the page says when the bundle's folder would not take the file (nothing was saved)."""
    import errno

    name = Path(name or "the file").name
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (f"{name}: not saved: the desk may not write into {Path(bundle)} ({exc.strerror}); ask whoever looks "
                "after this machine to let the desk write to the bundle's registers/ and ledgers/, then add it again")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return (f"{name}: not saved: the disk holding {Path(bundle)} is full; free some space (or ask whoever looks "
                "after this machine), then add it again")
    return f"{name}: not saved ({exc.strerror or exc}); nothing was written into the bundle; try again"
