"""The load's checks of the District Magistrate's decisions on findings (finding_reviews), run on the
typed rows of one file (`_typed`, ingest.py) before anything of it is written.

A decision is no event of the accounts: the meeting that decides on a month sits after it, so it
is not checked against the as-of date. What could not have happened is a decision dated after the
day it is loaded, or after the bundle's own date. A row whose decision is blank is a finding not
decided yet (a review workbook's row the office left): passed over and counted, never refused.
"""

from __future__ import annotations

import datetime as dt

from pipeline.core.errors import Problem
from pipeline.core.registers import Register
from pipeline.load import cells
from pipeline.load.versions import MAX_LISTED


def after_load_day(con, reg: Register, label: str, bundle_as_of: dt.date | None, today: dt.date) -> list[Problem]:
    """Rows that could not have happened yet: dated after the day they are loaded, or after the
    bundle's own date (a decision on a finding). A decision dated after the accounts' date is no
    such row: the meeting that decides on a month sits after it."""
    if "not_after_load_day" not in reg.extra_checks:
        return []
    known_by, why = ((bundle_as_of, "the bundle's own date (bundle.toml as_of)")
                     if bundle_as_of is not None and bundle_as_of < today else (today, "the day it is loaded"))
    col = reg.event_date[0]
    rows = con.execute(f'SELECT _row, "{col}" FROM _typed WHERE "{col}" > ? ORDER BY _row LIMIT {MAX_LISTED}',
                       [known_by]).fetchall()
    return [Problem(label, row, col, day.strftime("%d-%m-%Y"),
                    f"is after {known_by:%d-%m-%Y}, {why}: a decision cannot be recorded before it is made; "
                    "write the day it was made") for row, day in rows]


def pass_over_undecided(con, reg: Register) -> int:
    """Rows whose decision is blank are findings left undecided (a review workbook's rows the office
    has not filled in): they are passed over, whatever else they hold, and counted."""
    if "blank_decision_undecided" not in reg.extra_checks:
        return 0
    n = con.execute(f"SELECT count(*) FROM {cells.TYPED} WHERE decision IS NULL").fetchone()[0]
    if n:
        con.execute(f"UPDATE {cells.TYPED_ALL} SET _blank = true WHERE decision IS NULL")
    return n
