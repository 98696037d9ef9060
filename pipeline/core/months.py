"""Months as the reports and the accounts name them: YYYY-MM."""

from __future__ import annotations

import calendar
import datetime as dt
import re

from pipeline.core.errors import PoundError


def month_bounds(month: str) -> tuple[dt.date, dt.date]:
    """First and last day of a month written YYYY-MM."""
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})", str(month or ""))      # ASCII digits only
    if not m or not 1 <= int(m.group(2)) <= 12:
        raise PoundError(f"{month!r} is not a month written YYYY-MM")
    y, mo = int(m.group(1)), int(m.group(2))
    return dt.date(y, mo, 1), dt.date(y, mo, calendar.monthrange(y, mo)[1])


def month_label(month: str) -> str:
    """October 2026 for 2026-10."""
    first, _ = month_bounds(month)
    return first.strftime("%B %Y")


def months_between(first: str, last: str) -> list[str]:
    """Every month from `first` to `last`, both included."""
    d, stop = month_bounds(first)[0], month_bounds(last)[0]
    out = []
    while d <= stop:
        out.append(f"{d:%Y-%m}")
        d = (d + dt.timedelta(days=32)).replace(day=1)
    return out


def day_text(d) -> str:
    """A date as the registers and the papers write it, day first: 05-10-2026."""
    if d is None:
        return ""
    if hasattr(d, "date") and callable(d.date):
        d = d.date()
    return d.strftime("%d-%m-%Y")
