"""The desk's history: an append-only log in the bundle of every step, upload, removal, decision,
close and reopening done at the desk (when, who, what, the month, the result), one JSON line each.

It lies in the bundle's closes/ folder (closes/desk_history.jsonl), which the loader passes over
and which a copied office folder carries; a line is only ever added (opened for appending, one
write each), never rewritten. A close seals the log's length and hash as they stood (close/logs.py),
so that verify, given the bundle, notices a line of the past changed or removed.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import threading
from pathlib import Path

from pipeline.close.logs import CLOSES, DESK_HISTORY

NAME = DESK_HISTORY
FOLDER = CLOSES
_lock = threading.Lock()          # one line at a time from this process's threads


def path_of(bundle: Path) -> Path:
    return Path(bundle) / FOLDER / NAME


def write(bundle: Path, who: str, what: str, month: str | None, result: str, file: str | None = None) -> dict:
    """Add one line: now (UTC, to the second), who, what, the month, the result (and the file it is about)."""
    line = {"at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "who": who, "what": what,
            "month": month, "result": result}
    if file:
        line["file"] = file
    data = (json.dumps(line, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")
    p = path_of(bundle)
    p.parent.mkdir(exist_ok=True)
    with _lock:
        fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    return line


def read(bundle: Path, month: str | None = None) -> list[dict]:
    """The log's lines (of one month, with `month`), oldest first; a line that is no JSON is passed over."""
    p = path_of(bundle)
    if not p.is_file() or p.is_symlink():
        return []
    out = []
    for text in p.read_text(encoding="utf-8", errors="replace").split("\n"):       # lines end in \n only: a
        # value may hold U+2028 and the like, which splitlines() would take for ends of lines
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, dict) and (month is None or line.get("month") == month):
            out.append(line)
    return out
