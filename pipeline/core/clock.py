"""The time a load or a build is recorded at: the clock's, to the second, unless an environment
variable fixes it (YYYY-MM-DDTHH:MM:SS), so that a bundle dated ahead of the clock (the tests'
golden bundle) loads and builds the same on any day."""

from __future__ import annotations

import datetime as dt
import os


def now(fixed_by: str) -> dt.datetime:
    """The time now, to the second, or the one the environment variable `fixed_by` gives."""
    fixed = os.environ.get(fixed_by)
    if fixed:
        return dt.datetime.fromisoformat(fixed)
    return dt.datetime.now().replace(microsecond=0)


def today() -> dt.date:
    """Today's date, or the one POUND_TODAY (YYYY-MM-DD) gives: the desk asks it whether a month is
    over, and a test fixes it to try a month still running."""
    return now("POUND_TODAY").date()
