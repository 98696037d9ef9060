"""The sample and golden bundles, loaded and built once for the whole test session, and copied
for each test that uses them.

A `pound run` of either bundle takes seconds (the load, the build, every export); many tests
only read what it made, and a copy of its folder is made in milliseconds. The first test
process (pytest-xdist runs two) to ask for a run makes it, under a file lock in the session's
shared temporary folder; the other waits for it and reuses it. Each caller gets its own copy,
so a test that writes into its database or folder changes nobody else's.

Only the repository's own bundles (data/sample, tests/golden/bundle) are shared: no test
changes them. A test that runs a bundle it made itself, or that tests `pound run` as it runs,
runs it itself.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"
GOLDEN = ROOT / "tests" / "golden" / "bundle"
SHARED_BUNDLES = (SAMPLE, GOLDEN)
# Files load "on" 01-01-2027 whatever the clock says: the golden bundle holds rows to 31-12-2026, and
# a row dated after its file's load day is a DQ-FUTURE-DATE finding (tests of that rule set their own).
LOAD_TIME = "2027-01-01T10:00:00"


def _key(*parts) -> str:
    text = json.dumps([str(p) for p in parts])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def quietly(fn: Callable, *args):
    """fn(*args) with its stdout and stderr kept (out of a test's capsys); returns (result, output)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        result = fn(*args)
    return result, buf.getvalue()


class Shared:
    """Things made once per session in `root` (a folder every test process sees), each under its
    own file lock."""

    def __init__(self, root: Path, scratch: Callable[[str], Path]):
        self.root = root
        self.scratch = scratch              # a new private folder of this test process
        root.mkdir(parents=True, exist_ok=True)

    def once(self, name: str, make: Callable[[Path], None]) -> Path:
        """The folder root/name, made by make(folder) in the first process that asks for it."""
        done = self.root / name
        with (self.root / f"{name}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                work = self.root / f"{name}.partial"
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir()
                make(work)
                work.rename(done)
        return done

    def run_folder(self, bundle: Path, as_of: str, *args: str) -> Path:
        """The folder `pound run BUNDLE --out FOLDER --as-of AS_OF [ARGS]` wrote (shared: read only)."""
        bundle = Path(bundle).resolve()
        assert bundle in SHARED_BUNDLES, f"{bundle} is not one of the shared bundles"

        def make(folder: Path) -> None:
            import pytest

            from pipeline.cli import main

            with pytest.MonkeyPatch.context() as mp:
                mp.setenv("POUND_LOAD_TIME", LOAD_TIME)      # whatever the environment says
                code, said = quietly(main, ["run", str(bundle), "--out", str(folder / "out"), "--as-of", as_of, *args])
            assert code == 0, said
            (folder / "said.txt").write_text(said, encoding="utf-8")

        return self.once(f"run-{bundle.name}-{as_of}-{_key(bundle, *args)}", make) / "out"

    def run_said(self, bundle: Path, as_of: str, *args: str) -> str:
        """What that `pound run` printed, its output and its errors together (shared: read only)."""
        return (self.run_folder(bundle, as_of, *args).parent / "said.txt").read_text(encoding="utf-8")

    def run(self, bundle: Path, as_of: str, out: Path | None = None, *args: str) -> Path:
        """A copy, at out (default: a new folder), of the folder a `pound run` of a shared bundle wrote."""
        out = out if out is not None else self.scratch("run") / "out"
        shutil.copytree(self.run_folder(bundle, as_of, *args), out)
        return out

    def reference_file(self) -> Path:
        """A database holding helpers.REFERENCE and nothing else (shared: read only)."""
        from helpers import database

        def make(folder: Path) -> None:
            database(path=folder / "reference.duckdb").close()

        return self.once("reference", make) / "reference.duckdb"

    def inserted_file(self, bundle: Path) -> Path:
        """A shared bundle's rows typed and inserted, nothing built (helpers.inserted_into; shared:
        read only): typing the files is done once, not again for each as-of date and parameters."""
        from helpers import inserted_into

        def make(folder: Path) -> None:
            inserted_into(folder / "inserted.duckdb", bundle).close()

        return self.once(f"inserted-{Path(bundle).name}-{_key(Path(bundle).resolve())}", make) / "inserted.duckdb"

    def built_file(self, bundle: Path, as_of: dt.date, params: dict | None) -> Path:
        """The database helpers.built makes of a shared bundle (shared: read only): a copy of
        the inserted one, built (helpers.built_into)."""
        from helpers import built_into

        def make(folder: Path) -> None:
            built_into(folder / "built.duckdb", bundle, as_of, params).close()

        name = f"built-{Path(bundle).name}-{as_of}-{_key(Path(bundle).resolve(), json.dumps(params, sort_keys=True))}"
        return self.once(name, make) / "built.duckdb"


SESSION: Shared | None = None          # set by conftest.py for the session
