"""Writing a file whole: into a partial file beside it, then renamed over it, so that a reader (or a
run killed half way) sees the old file or the new one, never half of one.

The one way pound writes a file in place: `written_whole(path)` for a writer that wants a path of
its own to write to (a workbook's save, a copy), `write_whole(path, data)` for text or bytes in hand.
The partial file is hidden, on the same disk as the file, and removed when the writing fails:
`.<name>.partial`, so that a run killed half way leaves one the next run writes over, or, where
writers of the same file may meet (`own`), `.<name>.<pid>.<thread>.partial`.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path


def partial_of(path: Path, own: bool = False) -> Path:
    """The partial file `path` is written into first (`own`: one per process and thread)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.partial" if own
                          else f".{path.name}.partial")


@contextlib.contextmanager
def written_whole(path: Path, sync: bool = False, own: bool = False) -> Iterator[Path]:
    """Yield the partial file to write `path` into; when the block ends, it is renamed over `path`
    (flushed to disk first when `sync`); when the block raises, it is removed and `path` left as it was."""
    path = Path(path)
    partial = partial_of(path, own)
    try:
        yield partial
        if sync:
            with partial.open("rb") as fh:
                os.fsync(fh.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def write_whole(path: Path, data: str | bytes, encoding: str = "utf-8", own: bool = False) -> Path:
    """Write `data` (text in `encoding`, or bytes) as the whole of `path`."""
    with written_whole(path, own=own) as partial:
        if isinstance(data, bytes):
            partial.write_bytes(data)
        else:
            partial.write_text(data, encoding=encoding)
    return Path(path)
