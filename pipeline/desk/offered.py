"""The files the desk hands out: those the month's steps wrote, and nothing else.

A file is offered by its month, its kind and its own name, never by a path the browser gives:

- ``review``: the month's review as the desk or ``pound month`` wrote it (OUT/month_<MONTH>/: the
  pages, their PDFs, the plotly.js they share, the review workbook);
- ``exports``: the build's exports written for the month (OUT/month_<MONTH>/exports/);
- ``papers``: the month's papers, their PDFs and their index (OUT/month_<MONTH>/papers/);
- ``workbooks``: the keeper's and ledger workbooks made from the desk (OUT/month_<MONTH>/workbooks/);
- ``close``: the files of a close of the month (BUNDLE/closes/<folder>/, the folder one of the
  month's closes), with the signed scan when there is one.

The name is looked up among the regular files the folder holds (its listing, compared exactly), so
that no encoding of ``..``, no folder separator, no absolute path and no link leads out of it; the
file found is resolved once more and must lie directly in the folder. Anything else is None, which
the web layer answers with 404.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.months import month_bounds

KINDS = ("review", "exports", "papers", "close", "workbooks")
SHOWN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")   # the names the steps write; no dot first
CLOSE_SUFFIXES = (".html", ".pdf", ".xlsx", ".csv", ".json", ".js")
SUFFIXES = {             # what each step writes there, and nothing else is handed out
    "review": (".html", ".pdf", ".xlsx", ".js"),
    "exports": (".csv", ".xlsx", ".toml", ".parquet"),
    "papers": (".html", ".pdf"),
    "workbooks": (".xlsx",),
    "close": CLOSE_SUFFIXES,
}


@dataclass(frozen=True)
class Offered:
    month: str
    kind: str
    name: str
    path: Path
    close: str | None = None          # the close folder's name, for kind "close"


def _month_ok(month: str) -> bool:
    try:
        month_bounds(month)
    except Exception:
        return False
    return bool(re.fullmatch(r"\d{4}-\d{2}", month))


def folder(places, month: str, kind: str, close: str | None = None) -> Path | None:
    """The one folder a kind of the month's files lies in, or None. A folder reached through a link
    on the way (month_<MONTH>/ made a link to elsewhere, say) is none of the desk's."""
    if not _month_ok(month):
        return None
    if kind == "review":
        base, root, parts = places.month(month), places.out, (places.month(month).name,)
    elif kind in ("exports", "papers", "workbooks"):
        base = {"exports": places.month(month) / "exports", "papers": places.papers(month),
                "workbooks": places.month(month) / "workbooks"}[kind]
        root, parts = places.out, (places.month(month).name, base.name)
    elif kind == "close" and close is not None:
        base = next((f for f in close_folders_of(places, month) if f.name == close), None)
        root, parts = places.bundle, ("closes", close)
    else:
        return None
    if base is None or not base.is_dir() or base.resolve() != Path(root).resolve().joinpath(*parts):
        return None
    return base


def close_folders_of(places, month: str) -> list[Path]:
    """The month's close folders in the bundle (of any district), oldest first; none that cannot be read."""
    from pipeline.core.errors import PoundError
    from pipeline.load.closes import close_folders, read_close

    found = []
    for f in close_folders(places.bundle):
        try:
            c = read_close(f)
        except PoundError:
            continue
        if c.get("month") == month:
            found.append((c.get("closed_at", ""), f))
    return [f for _, f in sorted(found)]


def listing(base: Path | None) -> list[str]:
    """The regular files directly in `base` whose names the desk may hand out, sorted."""
    if base is None or not base.is_dir() or base.is_symlink():
        return []
    names = []
    with os.scandir(base) as it:
        for e in it:
            if SHOWN.fullmatch(e.name) and e.is_file(follow_symlinks=False):
                names.append(e.name)
    return sorted(names)


def find(places, month: str, kind: str, name: str, close: str | None = None) -> Path | None:
    """The file to hand out, or None (404) for anything the month's steps did not write there."""
    if kind not in KINDS or not isinstance(name, str) or not SHOWN.fullmatch(name):
        return None
    if (kind == "close") != (close is not None):
        return None
    if close is not None and not SHOWN.fullmatch(close):
        return None
    base = folder(places, month, kind, close)
    if base is None or name not in listing(base) or not _written(kind, month, name):
        return None
    return _inside(base, name)


def _written(kind: str, month: str, name: str) -> bool:
    """Whether a step writes a file of this name in a folder of this kind."""
    if not name.endswith(SUFFIXES[kind]):
        return False
    # the month's pages and workbook carry its month in their names
    return kind != "review" or name == "plotly.min.js" or month in name


def _inside(base: Path, name: str) -> Path | None:
    path = base / name
    real_base = base.resolve()
    real = path.resolve()
    if real.parent != real_base or not real.is_file():
        return None
    return real


def where(places, path: Path) -> Offered | None:
    """How the desk names a file a step wrote (for its link), or None when it offers no such file."""
    path = Path(path)
    parent = path.parent.resolve()
    name = path.name
    m = re.fullmatch(r"month_(\d{4}-\d{2})", path.parent.name)
    candidates: list[tuple[str, str, str | None]] = []
    # a close first: the bundle may lie inside OUT (the database's folder)
    closed = path.parent.name[:7]
    if _month_ok(closed) and (places.bundle / "closes").resolve() == parent.parent:
        candidates.append((closed, "close", path.parent.name))
    if m:
        candidates.append((m.group(1), "review", None))
    if path.parent.name in ("exports", "papers", "workbooks"):
        m2 = re.fullmatch(r"month_(\d{4}-\d{2})", path.parent.parent.name)
        if m2:
            candidates.append((m2.group(1), path.parent.name, None))
    for month, kind, close in candidates:
        base = folder(places, month, kind, close)
        if base is not None and base.resolve() == parent:
            found = find(places, month, kind, name, close)
            if found is not None:
                return Offered(month, kind, name, found, close)
    return None


def of_month(places, month: str) -> dict[str, list[Offered]]:
    """Every file the desk offers for the month, by kind (the close's by its folder, oldest first)."""
    out: dict[str, list[Offered]] = {}
    for kind in ("review", "papers", "exports", "workbooks"):
        base = folder(places, month, kind)
        out[kind] = [Offered(month, kind, n, base / n) for n in listing(base)
                     if _written(kind, month, n) and _inside(base, n)]
    out["close"] = [Offered(month, "close", n, f / n, f.name) for f in close_folders_of(places, month)
                    if folder(places, month, "close", f.name) for n in listing(f)
                    if _written("close", month, n) and _inside(f, n)]
    return out
