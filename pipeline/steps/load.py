"""Load a bundle (a folder or a .zip of one) into a database: each file whole or not at all."""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.locks import DEFAULT_WAIT
from pipeline.core.progress import Progress


@dataclass
class Loaded:
    """What a load did. `result` is the loader's account of every file (load/ingest.py)."""
    bundle: Path
    db: Path | None
    result: object                          # pipeline.load.results.IngestResult
    as_of: dt.date | None                   # the as-of date given, or the bundle's bundle.toml as_of
    notes: list[str] = field(default_factory=list)     # what the load says beside its result (stderr)

    @property
    def rejected(self) -> list:
        return self.result.rejected

    @property
    def files_loaded(self) -> list:
        return [f for f in self.result.files if f.status in ("loaded", "no_new_rows")]

    @property
    def files_skipped(self) -> list:
        return [f for f in self.result.files if f.status == "skipped"]

    @property
    def new_rows(self) -> int:
        return sum(f.new_rows for f in self.files_loaded)

    def summary(self, kept: bool = True) -> str:
        """The load in one line; `kept` False when nothing loaded is kept (a run with a rejected file)."""
        loaded, rejected = self.files_loaded, self.rejected
        if not kept:
            return (f"checked {len(loaded) + len(rejected)} file(s): {len(loaded)} passed, "
                    f"{len(rejected)} rejected; nothing was loaded or written")
        return (f"loaded {len(loaded)} file(s), {self.new_rows:,} new row(s); skipped {len(self.files_skipped)} "
                f"already loaded; rejected {len(rejected)}")

    def rejection_lines(self) -> list[str]:
        """Every rejected file and its problems, a line each."""
        lines: list[str] = []
        for f in self.rejected:
            n = len(f.problems) + f.more
            if n == 1 and f.problems[0].row is None and f.problems[0].message.startswith("not loaded:"):
                lines.append(f"REJECTED {f.label}: {f.problems[0].message}")
                continue
            lines.append(f"REJECTED {f.label}: {n} problem(s); nothing from this file was loaded")
            lines += [f"  {prob.render()}" for prob in f.problems]
            if f.more:
                lines.append(f"  ... and {f.more:,} more problem(s) in {f.label}, not listed")
        return lines

    def note_lines(self) -> list[str]:
        return ([*self.notes] + [f"note: {n}" for n in self.result.notes]
                + [f"warning: {w}" for w in self.result.warnings])


@contextmanager
def named(bundle: Path):
    """A zip's unpacked copy that is not a bundle is named as the zip the user gave."""
    from pipeline.load.folder import NotABundle

    try:
        yield
    except NotABundle:
        raise NotABundle(bundle) from None


def bundle_as_of(as_of: dt.date | None, folder: Path) -> tuple[dt.date | None, list[str]]:
    """`as_of`, or else the as_of of the bundle's bundle.toml (and the note saying so)."""
    from pipeline.load.bundle_toml import read_bundle_info

    info = read_bundle_info(folder)
    if as_of is None and info is not None and info.as_of is not None:
        return info.as_of, [f"as of {info.as_of.isoformat()}, the date in the bundle's bundle.toml "
                            "(give --as-of to draw the accounts up to another date)"]
    return as_of, []


def load(bundle: Path, db: Path, as_of: dt.date | None = None, wait: float = DEFAULT_WAIT,
         progress: Progress | None = None) -> Loaded:
    """Add a bundle to the database `db` (created if absent): every file new to it is loaded whole
    or rejected with every reason. Returns what was loaded; `Loaded.rejected` lists the files refused."""
    from pipeline.load import connection
    from pipeline.load.ingest import ingest
    from pipeline.load.zipped import check_bundle, unpacked

    bundle, db = Path(bundle), Path(db)
    if db.parent and not db.parent.exists():
        raise PoundError(f"the folder of --db, {db.parent}, does not exist")
    check_bundle(bundle)
    progress = progress or Progress()
    with unpacked(bundle) as folder:
        as_of, notes = bundle_as_of(as_of, folder)
        con = connection.connect(db, wait=wait, rows=connection.bundle_rows(folder))
        try:
            with named(bundle):
                result = ingest(con, folder, progress, require_reference=False, as_of=as_of, origin=bundle,
                                home=db.resolve().parent)
            progress.close()
        finally:
            con.close()
    return Loaded(bundle, db, result, as_of, notes)
