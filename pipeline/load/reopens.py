"""A closed month reopened from the desk, until it is closed again.

A close stands until a later close of the same month replaces it (pound close --reopen keeps both).
Between the two, the month is being worked on again: its review is a draft once more, and the
next close must carry the reason. The desk keeps that in the bundle, beside the closes, as
BUNDLE/closes/<month>[_<district>].reopened.json (a file, so that it is never taken for a close
folder): who asked, when, and why. It counts only while it is newer than the close in force; the
close that follows it removes it.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.whole import write_whole
from pipeline.load.bundle import CLOSES
from pipeline.load.closes import in_force

SUFFIX = ".reopened.json"


def path_of(bundle: Path, month: str, district: str | None = None) -> Path:
    return Path(bundle) / CLOSES / f"{month}{'_' + district if district else ''}{SUFFIX}"


def pending(bundle: Path, month: str, district: str | None = None) -> dict | None:
    """The reopening of the month still waiting for its close ({"reason", "by", "at"}), or None: none
    asked, or the month closed again since."""
    path = path_of(bundle, month, district)
    if not path.is_file():
        return None
    try:
        asked = json.loads(path.read_text(encoding="utf-8"))
        reason, at = str(asked["reason"]).strip(), str(asked["at"])
        dt.datetime.fromisoformat(at)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise PoundError(f"{path} cannot be read: it was not written by the desk's \"Reopen the month\" or has been "
                         "altered; remove it, and reopen the month again") from None
    closed = in_force(bundle, month, district)
    if closed is None or closed[1]["closed_at"] >= at or not reason:
        return None
    return {"reason": reason, "by": asked.get("by") or "", "at": at}


def ask(bundle: Path, month: str, reason: str, by: str = "", district: str | None = None,
        now: dt.datetime | None = None) -> dict:
    """Reopen a closed month: PoundError when it is not closed, or no reason is given."""
    reason = (reason or "").strip()
    if not reason:
        raise PoundError(f"say why {month} is reopened (\"Reason\"): the next close of it carries the reason")
    closed = in_force(bundle, month, district)
    if closed is None:
        raise PoundError(f"{month} has not been closed: there is nothing to reopen")
    at = (now or dt.datetime.now()).replace(microsecond=0)
    if at.isoformat(sep=" ") <= closed[1]["closed_at"]:
        at = dt.datetime.fromisoformat(closed[1]["closed_at"]) + dt.timedelta(seconds=1)
    asked = {"month": month, "district": district, "reason": reason, "by": (by or "").strip(),
             "at": at.isoformat(sep=" "), "close_in_force": closed[0].name}
    path = path_of(bundle, month, district)
    write_whole(path, json.dumps(asked, indent=1, ensure_ascii=False) + "\n")
    return asked


def clear(bundle: Path, month: str, district: str | None = None) -> None:
    """The month closed again: its reopening is done."""
    path_of(bundle, month, district).unlink(missing_ok=True)
