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

# The last day a decision loaded on `loaded` could have been made: that day, or the bundle's own
# date when it gives an earlier one. The one statement of the rule: the load refuses a decision
# dated after it (after_load_day), and int_finding_reviews sets aside as `future` one loaded
# before this check existed, through the macro decision_known_by() the build makes of it.
KNOWN_BY = "least({loaded}, coalesce({bundle_as_of}, {loaded}))"


def known_by_macro() -> str:
    return (f"CREATE OR REPLACE TEMP MACRO decision_known_by(loaded, bundle_as_of) AS "
            f"{KNOWN_BY.format(loaded='loaded', bundle_as_of='bundle_as_of')};")


def after_load_day(con, reg: Register, label: str, bundle_as_of: dt.date | None, today: dt.date) -> list[Problem]:
    """Rows that could not have happened yet: dated after the day they are loaded, or after the
    bundle's own date (a decision on a finding). A decision dated after the accounts' date is no
    such row: the meeting that decides on a month sits after it."""
    if "not_after_load_day" not in reg.extra_checks:
        return []
    known_by = con.execute(f"SELECT {KNOWN_BY.format(loaded='CAST($1 AS DATE)', bundle_as_of='CAST($2 AS DATE)')}",
                           [today, bundle_as_of]).fetchone()[0]
    why = "the day it is loaded" if known_by == today else "the bundle's own date (bundle.toml as_of)"
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
