"""What the build learns about its own SQL, kept between runs.

Two facts about the models do not depend on the data, only on the SQL text, the DuckDB version
and the types of the tables the SQL reads: which tables a model reads (for the build order) and
which of its columns DuckDB makes HUGEINT (sums, cast back to BIGINT). Working them out means
parsing and binding every model once more, about 0.6 s of a run on a small bundle; a run that
finds them here skips that. Each fact is filed under a hash of everything it depends on, so an
edited model or another DuckDB version finds nothing and works the fact out again; nothing is
ever read back under a key it was not computed for; the key also holds a hash of the code that
works the fact out, so a change to that code starts afresh too. The build checks the finished
tables' types all the same (build/__init__.py): an entry that left a HUGEINT uncast would stop
the build. The keys must be complete for the memo to be safe, since an entry naming a column
that is not HUGEINT would have it cast to BIGINT.

The file lives in $POUND_CACHE_DIR, else $XDG_CACHE_HOME/pound, else ~/.cache/pound; when it
cannot be read or written, the build works everything out as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import types
from pathlib import Path

import duckdb


def cache_dir() -> Path | None:
    """Where the memo lives; None when there is nowhere (no home folder), and then nothing is kept."""
    if os.environ.get("POUND_CACHE_DIR"):
        return Path(os.environ["POUND_CACHE_DIR"])
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:          # no HOME and no passwd entry for the user
        return None
    return Path(base) / "pound"


def code_digest(*functions) -> str:
    """A hash of the compiled code of `functions`: a change to how a fact is worked out is a new key.
    The same code gives the same hash in every process (a nested comprehension's code object is
    hashed by its contents: its repr holds a memory address, which made every run a new key)."""
    return digest(*(_code_text(f.__code__) for f in functions))


def _code_text(code: types.CodeType) -> str:
    return repr((code.co_code, tuple(_const_text(c) for c in code.co_consts), code.co_names))


def _const_text(const) -> str:
    """A constant as text that is the same in every process: a set's order follows the process's
    string hashing, so its members are sorted."""
    if isinstance(const, types.CodeType):
        return _code_text(const)
    if isinstance(const, frozenset):
        return "frozenset" + repr(sorted(_const_text(c) for c in const))
    if isinstance(const, tuple):
        return repr(tuple(_const_text(c) for c in const))
    return repr(const)


def digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


# Past this many entries, a file that is written again keeps only those this process used: each
# edit of a model leaves some 60 entries behind, which nothing will ask for again.
KEEP_AT_MOST = 3000


class Memo:
    """A dict of JSON values in one file per DuckDB version, read once per process and written
    back (whole, atomically) when something was added. The build asks from two threads at once
    (schedule.py): the file is read by the first to ask, and the other waits for it (each read
    its own copy before, and the entries put into the copy read first were lost)."""

    def __init__(self, name: str):
        self.name = name
        self._data: dict | None = None
        self._added = False
        self._used: set[str] = set()
        self._lock = threading.Lock()

    @property
    def path(self) -> Path | None:
        folder = cache_dir()
        return None if folder is None else folder / f"{self.name}-duckdb-{duckdb.__version__}.json"

    def _load(self) -> dict:
        with self._lock:
            return self._read()

    def _read(self) -> dict:
        if self._data is None:
            try:
                if self.path is None:
                    raise OSError("no cache folder")
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self._data = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                self._data = {}
        return self._data

    def get(self, key: str):
        self._used.add(key)
        return self._load().get(key)

    def put(self, key: str, value) -> None:
        with self._lock:
            self._used.add(key)
            data = self._read()
            if data.get(key) != value:
                data[key] = value
                self._added = True

    def save(self) -> None:
        """Write what was added; another process's additions since this one read the file are
        kept (read again and merged), unless the file has grown past KEEP_AT_MOST entries, and a
        failure to write is not an error."""
        if not self._added or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                disk = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                disk = {}
            merged = {**(disk if isinstance(disk, dict) else {}), **self._load()}
            if len(merged) > KEEP_AT_MOST:
                merged = {k: v for k, v in merged.items() if k in self._used}
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".memo-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(merged, fh, sort_keys=True)
            os.replace(tmp, self.path)
            self._data, self._added = merged, False
        except OSError:
            pass


READS = Memo("reads")        # sha of a SELECT -> the tables it reads
KINDS = Memo("hugeint")      # sha of a model, its inputs' types and the variables' -> its HUGEINT columns
