"""What page 1 of the review says of its own figures: their id, the build they come from, whether
they are a draft for the meeting, and whether files were loaded after them.

On a draft, the figures id is 8 hex digits of the sha256 of glance.sealed(), the one list of
figures page 1 shows: two drafts carry the same id exactly when they show the same figures. The
copy `pound close` seals prints the close's own figures id instead (close/seal.py figures_id_of:
every figure sealed, who closed the month, when and why), and beside it, as "Draft figures id",
the id a draft showing the same page 1 carried.
"""

from __future__ import annotations

import hashlib
import json

from pipeline.build import record


def figures_id(sealed: list[dict]) -> str:
    """8 hex digits of a hash of the figures (label and exact value of each, in order)."""
    text = json.dumps([[f["label"], f["value"]] for f in sealed], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def built_text(con) -> str:
    b = record.last(con)
    return f"{b.built_at:%d-%m-%Y %H:%M} (build {b.build_id})" if b else "not recorded"


def stale_text(con) -> str | None:
    """Files loaded after the figures, said on the page's face (None when there are none)."""
    files = record.since(con)
    return record.stale_line(files) if files else None


def rows(con, sealed: list[dict], closed: str, sealed_id: str | None = None) -> list[tuple[str, str]]:
    """The rows page 1's parameters table adds: figures id, build time, draft, files loaded since.
    `closed`: what the page says of the close (a month not closed starts "no"); `sealed_id`: in
    the copy a close seals, the close's figures id."""
    if sealed_id:
        out = [("Figures id", sealed_id),
               ("Draft figures id", f"{figures_id(sealed)}, as on a draft for the meeting that showed these figures")]
    else:
        out = [("Figures id", figures_id(sealed))]
    out.append(("Figures built", built_text(con)))
    if closed.startswith("no"):
        out.append(("Draft", "DRAFT for the meeting, until pound close seals it"))
    stale = stale_text(con)
    if stale:
        out.append(("Out of date", stale))
    return out
