"""Waiting for a database another program is writing.

DuckDB lets one process write a database file at a time (and no other process read it
meanwhile): a second `pound` command gets "Could not set lock on file". Instead of that
error, a command retries until its --wait runs out, then stops with one line naming the
database and what to do.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pipeline.core.errors import PoundError

T = TypeVar("T")
DEFAULT_WAIT = 30          # seconds; --wait
POLL = 0.25


def is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "could not set lock" in text or "conflicting lock" in text


def in_use(path: Path, waited: float) -> PoundError:
    return PoundError(f"database {path} is in use by another program (another 'pound' command?) and stayed so for "
                      f"{waited:g} s; run this again when it has finished, give a longer --wait SECONDS, "
                      "or use another --db")


def opened(open_db: Callable[[], T], path: Path, wait: float = DEFAULT_WAIT) -> T:
    """open_db() once the database is free, trying again until `wait` seconds have passed."""
    deadline = time.monotonic() + max(wait, 0)
    told = False
    while True:
        try:
            return open_db()
        except Exception as exc:
            if not is_lock_error(exc):
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise in_use(path, wait) from None
            if not told:
                print(f"waiting up to {wait:g} s for database {path}, which another program is using",
                      file=sys.stderr)
                told = True
            time.sleep(min(POLL, left))
