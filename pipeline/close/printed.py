"""What the review printed for a month, remembered in the database (printed_reviews), so that a
close can say which figures of page 1 moved since the page taken to the meeting, and why."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb

from pipeline.build import record
from pipeline.core.page_measures import by_measure
from pipeline.reports import glance
from pipeline.reports.stamp import figures_id


def remember(db: Path, month: str, district: str | None, wait: float = 0,
             pages: dict[str, str] | None = None) -> tuple[str, list[dict]]:
    """Record page 1's figures as just printed, and the pages printed with their hashes (`pages`: a
    close copies a page of the review only when the database holds its hash: reports/render.py
    kept_pages); returns their figures id, and the figures (glance.sealed: measure id, label, exact
    value, the text shown)."""
    from pipeline.core.errors import PoundError
    from pipeline.load import connection
    from pipeline.read.database import connect

    con = connect(db, wait=wait)
    try:
        shown = glance.sealed(con, month, district)
        b = record.last(con)
    finally:
        con.close()
    fid = figures_id(shown)
    try:       # remembered when the database can be written (a reader never fails for want of it)
        con = connection.connect(db, wait=wait)
    except (PoundError, duckdb.Error):       # held by another program, or opened read-only in this one
        return fid, shown
    try:
        con.execute("INSERT INTO printed_reviews (month, district, figures_id, figures, build_id, last_load_id, "
                    "printed_at, pages) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [month, district, fid, json.dumps(shown, ensure_ascii=False), b.build_id if b else None,
                     b.last_load_id if b else None, dt.datetime.now().replace(microsecond=0),
                     json.dumps(pages or {}, sort_keys=True)])
    finally:
        con.close()
    return fid, shown


def _last_printed(con, month: str, district: str | None, now_id: str):
    """The review printed last for the month with figures other than `now_id`'s."""
    from pipeline.load.schema import has_table

    if not has_table(con, "printed_reviews"):
        return None
    return con.execute("SELECT figures_id, figures, last_load_id, printed_at FROM printed_reviews "
                       "WHERE month = ? AND district IS NOT DISTINCT FROM ? AND figures_id <> ? "
                       "ORDER BY printed_at DESC LIMIT 1", [month, district, now_id]).fetchone()


def moved(con, month: str, district: str | None, now: list[dict]) -> list[str]:
    """The figures of page 1 that differ from the review last printed for the month with other
    figures (the page taken to the meeting, before its decisions were loaded), each as
    "label a → b (why)"; empty when every review printed showed the figures sealed."""
    last = _last_printed(con, month, district, figures_id(now))
    if last is None:
        return []
    fid, figures, last_load, printed_at = last
    before = {m: f["text"] for m, f in by_measure(json.loads(figures)).items()}
    decisions, others = con.execute(
        "SELECT count(*) FILTER (WHERE register = 'finding_reviews'), count(*) FILTER (WHERE register <> 'finding_reviews') "
        "FROM loads WHERE load_id > ?", [last_load or 0]).fetchone()
    why = ", ".join(p for p in (f"{decisions} decision file(s) loaded since" if decisions else "",
                                f"{others} other file(s) loaded since" if others else "") if p) \
        or "the accounts were built again (another as-of date or readings)"
    out = [f"page 1 printed {printed_at:%d-%m-%Y %H:%M} (figures id {fid}) differs from the page sealed:"]
    for m, f in by_measure(now).items():
        if before.get(m) != f["text"]:
            out.append(f"  {f['label']}: {before.get(m, '(not shown)')} → {f['text']} ({why})")
    return out
