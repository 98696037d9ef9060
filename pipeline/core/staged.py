"""An output folder whose files are replaced as a set: all of a run's files, or none of them.

A command writes its files into a hidden staging folder inside OUT (`OUT/.pound-next-XXXX`, so on
the same disk, and nothing is written outside OUT). When every file is written it marks the staging folder complete and only then
moves the files into OUT, one rename each. A run that fails or is killed before the mark
leaves OUT exactly as it was (its staging folder is removed by it, or by the next run once
its process is gone); a run killed after the mark, while moving, is finished by the next
command that writes to OUT, which moves the rest of the marked set before anything else.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

COMPLETE = ".complete"      # written last, in one rename: the set is whole and may be moved
OWNER = ".pid"              # the process writing the staging folder


def _staging_folders(out: Path) -> list[Path]:
    if not out.is_dir():
        return []
    return sorted(p for p in out.glob(".pound-next-*") if p.is_dir())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _move_in(stage: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    moved = []
    for path in sorted(stage.iterdir()):
        if path.name in (COMPLETE, OWNER):
            continue
        final = out / path.name
        if final.is_dir() and not path.is_dir():
            shutil.rmtree(final)
        os.replace(path, final)
        moved.append(final)
    shutil.rmtree(stage, ignore_errors=True)
    return moved


def recover(out: Path) -> None:
    """Finish a marked set a killed run left half moved; remove unmarked sets of runs that are gone."""
    for stage in _staging_folders(out):
        if (stage / COMPLETE).exists():
            _move_in(stage, out)
            continue
        try:
            pid = int((stage / OWNER).read_text())
        except (OSError, ValueError):
            pid = 0
        if not pid or not _alive(pid):
            shutil.rmtree(stage, ignore_errors=True)


class Staged:
    """with Staged(out) as st: write into st.folder, then st.commit() (not committing discards)."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.folder: Path | None = None
        self.committed = False
        self.created = False

    def __enter__(self) -> Staged:
        recover(self.out)
        self.created = not self.out.exists()
        self.out.mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix=".pound-next-", dir=self.out))
        (self.folder / OWNER).write_text(str(os.getpid()))
        return self

    def commit(self) -> list[Path]:
        """Mark the staged set whole (after flushing it to disk), then move it into OUT."""
        assert self.folder is not None
        for path in self.folder.iterdir():
            if path.is_file():
                with path.open("rb") as fh:
                    os.fsync(fh.fileno())
        mark = self.folder / (COMPLETE + ".tmp")
        mark.write_text("")
        os.replace(mark, self.folder / COMPLETE)
        self.committed = True
        return _move_in(self.folder, self.out)

    def __exit__(self, *exc) -> None:
        if not self.committed and self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            if self.created and not any(self.out.iterdir()):
                self.out.rmdir()      # a run that wrote nothing leaves no empty folder behind
