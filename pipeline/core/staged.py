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

from pipeline.core.locks import alive
from pipeline.core.whole import written_whole

COMPLETE = ".complete"      # written last, in one rename: the set is whole and may be moved
OWNER = ".pid"              # the process writing the staging folder
PENDING = ".pending"        # the set is whole, waiting for the database's commit (the build id it waits for)
TARGETS = ".targets.json"   # files of the set that go elsewhere than OUT (a database given by --db)


def _staging_folders(out: Path) -> list[Path]:
    if not out.is_dir():
        return []
    return sorted(p for p in out.glob(".pound-next-*") if p.is_dir())


def _move_in(stage: Path, out: Path) -> list[Path]:
    import json

    from pipeline.core.faults import point

    out.mkdir(parents=True, exist_ok=True)
    targets = json.loads((stage / TARGETS).read_text()) if (stage / TARGETS).exists() else {}
    moved = []
    for path in sorted(stage.iterdir()):
        if path.name in (COMPLETE, OWNER, PENDING, TARGETS):
            continue
        final = Path(targets[path.name]) if path.name in targets else out / path.name
        if final.is_dir() and not path.is_dir():
            shutil.rmtree(final)
        _replace(path, final)
        moved.append(final)
        point("staged:moving")
    shutil.rmtree(stage, ignore_errors=True)
    return moved


def _replace(path: Path, final: Path) -> None:
    """Rename `path` over `final`; on another disk, copied beside `final` first, then renamed: either
    way `final` is the old file or the new one, never half of one."""
    try:
        os.replace(path, final)
    except OSError:
        final.parent.mkdir(parents=True, exist_ok=True)
        with written_whole(final, sync=True, own=True) as partial:
            shutil.copyfile(path, partial)
        path.unlink()


def finish_pending(out: Path, committed) -> None:
    """A set a build left waiting for its database's commit (killed between the two): moved in if
    `committed(build_id)` says the database holds that build, else removed."""
    for stage in _staging_folders(Path(out)):
        if (stage / PENDING).exists() and not (stage / COMPLETE).exists():
            if committed(int((stage / PENDING).read_text() or 0)):
                os.replace(stage / PENDING, stage / COMPLETE)
            else:
                shutil.rmtree(stage, ignore_errors=True)
    recover(Path(out))


def recover(out: Path) -> None:
    """Finish a marked set a killed run left half moved; remove unmarked sets of runs that are gone."""
    for stage in _staging_folders(out):
        if (stage / COMPLETE).exists():
            _move_in(stage, out)
            continue
        if (stage / PENDING).exists():
            continue                     # a build's: finish_pending decides, with its database
        try:
            pid = int((stage / OWNER).read_text())
        except (OSError, ValueError):
            pid = 0
        if not pid or not alive(pid):
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

    def place(self, name: str, target: Path) -> None:
        """The staged file `name` goes to `target` rather than into OUT, when the set is moved in."""
        import json

        assert self.folder is not None
        path = self.folder / TARGETS
        targets = json.loads(path.read_text()) if path.exists() else {}
        targets[name] = str(Path(target).resolve())
        path.write_text(json.dumps(targets))

    def _flush(self) -> None:
        assert self.folder is not None
        for path in self.folder.iterdir():
            if path.is_file():
                with path.open("rb") as fh:
                    os.fsync(fh.fileno())

    def pend(self, build_id: int) -> None:
        """Mark the set whole but waiting for the database to commit build `build_id` (finish_pending)."""
        assert self.folder is not None
        self._flush()
        mark = self.folder / (PENDING + ".tmp")
        mark.write_text(str(build_id))
        os.replace(mark, self.folder / PENDING)

    def commit(self) -> list[Path]:
        """Mark the staged set whole (after flushing it to disk), then move it into OUT."""
        assert self.folder is not None
        self._flush()
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
