"""The register and ledger files in the bundle, as the desk's "Files in the bundle" lists them:
each with its state (loaded; rejected, with the reasons; not loaded yet) and when and by whom it was
added (the desk's history; a file put there otherwise says so). A file not yet loaded may be
removed; a loaded one may not (the database and any close name it by its contents: a correction
replaces it in a file of its own)."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.desk import history
from pipeline.desk.places import Places
from pipeline.desk.upload import FOLDERS, checked_name, holds_decisions, not_yours

LOADED, REJECTED, NOT_LOADED = "loaded", "rejected", "not loaded yet"


@dataclass
class FileRow:
    file: str                       # registers/impoundments.csv
    state: str
    bytes: int
    added_at: str                   # when added (the desk's history), else the file's own time
    added_by: str | None            # who added it at the desk; None: put there otherwise
    reasons: list[str] = field(default_factory=list)

    @property
    def removable(self) -> bool:
        return self.state != LOADED


def listing(places: Places) -> list[Path]:
    """The regular files directly in registers/ and ledgers/ (no hidden file, no link, no folder)."""
    out = []
    for folder in FOLDERS:
        base = places.bundle / folder
        if not base.is_dir() or base.is_symlink():
            continue
        with os.scandir(base) as it:
            out += [base / e.name for e in it if not e.name.startswith((".", "~$"))
                    and e.is_file(follow_symlinks=False)]
    return sorted(out, key=lambda p: (p.parent.name != "registers", p.name))


def rows(places: Places, loaded: frozenset[str]) -> list[FileRow]:
    lines = history.read(places.bundle)
    out = []
    for p in listing(places):
        rel = f"{p.parent.name}/{p.name}"
        about = [ln for ln in lines if ln.get("file") == rel]
        added = next((ln for ln in reversed(about) if ln.get("what") == "upload"), None)
        st = p.stat()
        if rel in loaded:
            state, reasons = LOADED, []
        else:
            last = about[-1] if about else None
            if last is not None and last.get("what") == "rejected":
                state, reasons = REJECTED, [r for r in str(last.get("result", "")).split("\n") if r]
            else:
                state, reasons = NOT_LOADED, []
        when = added["at"] if added else dt.datetime.fromtimestamp(st.st_mtime, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        out.append(FileRow(rel, state, st.st_size, when.replace("T", " ").removesuffix("Z") + " UTC",
                           added["who"] if added else None, reasons))
    return out


def removable(places: Places, given: str | None, loaded: frozenset[str], may_decide: bool = True) -> Path:
    """The file the page asks to remove (registers/NAME or ledgers/NAME, as listed), or PoundError; a
    file of decisions only for a person who may decide (`may_decide`), as upload.save adds one."""
    folder, _, name = str(given or "").partition("/")
    if folder not in FOLDERS:
        raise PoundError("choose a file of registers/ or ledgers/ to remove")
    try:
        name = checked_name(name)
    except PoundError:
        raise PoundError(f"{str(given)[:80]!r} is not a file of the bundle's registers/ or ledgers/; nothing was "
                         "removed") from None
    path = places.bundle / folder / name
    if path not in listing(places):
        raise PoundError(f"{folder}/{name} is not in the bundle (removed already?); nothing was removed")
    if f"{folder}/{name}" in loaded:
        raise PoundError(f"{folder}/{name} has been loaded and cannot be removed: the database and any close name it "
                         "by its contents; a correction goes in a file of its own, with a correction_note on each row")
    if not may_decide and holds_decisions(path):
        raise not_yours(name, "a file of decisions", "remove it", "removed")
    return path
