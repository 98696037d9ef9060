"""The logs a close seals by their length and hash: append-only files of the bundle's closes/
(the desk's history, closes/desk_history.jsonl), which go on growing after the close. What is
sealed is the part written before it: verify, given the bundle, says when that part has changed
or gone (a line rewritten or removed), and passes over the lines added since."""

from __future__ import annotations

import hashlib
from pathlib import Path

CLOSES = "closes"
DESK_HISTORY = "desk_history.jsonl"
LOGS = (DESK_HISTORY,)


def sealed_logs(bundle: Path) -> list[dict]:
    """Each log of the bundle as it stands: its path in the bundle, its length in bytes, its sha256."""
    out = []
    for name in LOGS:
        p = Path(bundle) / CLOSES / name
        if p.is_file() and not p.is_symlink():
            data = p.read_bytes()
            out.append({"file": f"{CLOSES}/{name}", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    return out


def changed_logs(record: dict, bundle: Path) -> list[str]:
    """What has changed in the part of each log the close sealed (none: as sealed, lines added since or not)."""
    out = []
    for log in record.get("logs") or []:
        if log.get("file") not in {f"{CLOSES}/{n}" for n in LOGS}:      # no other path of the bundle is read
            out.append(f"a log the close names is none of the bundle's logs: {str(log.get('file'))[:80]!r}")
            continue
        p = Path(bundle) / log["file"]
        if not p.is_file() or p.is_symlink():
            out.append(f"log missing from the bundle: {log['file']} (sealed with the close, {log['bytes']} bytes)")
            continue
        with open(p, "rb") as f:
            head = f.read(log["bytes"])
        if len(head) < log["bytes"] or hashlib.sha256(head).hexdigest() != log["sha256"]:
            out.append(f"log changed since the close: {log['file']} (a line written before the close was altered "
                       "or removed)")
    return out
