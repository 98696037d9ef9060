"""The scope of a read: a district, a local authority and a period, each optional.

Auditors of a local fund audit one local authority for one financial year (1 April to
31 March). A Scope names what to read; `where(model)` turns it into the conditions a
selection (pipeline/read/select.py) adds. Each model's rows belong to a period by one
stated basis (BASIS): cases by impounded_on, movements and expected credits by due_on,
ledger entries by entry_on, findings by event_on, monthly rows by month. A model with no
basis here cannot be cut by period, and one without a local authority column cannot be
cut by local authority: asking for either is a defect, not a silent whole read.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from pipeline.core.errors import PoundError
from pipeline.core.months import month_bounds
from pipeline.read.select import Cond

# model -> (the column that places a row in a period, what the basis is called)
BASIS: dict[str, tuple[str, str]] = {
    "case_accounts": ("impounded_on", "cases by the day impounded"),
    "owner_accounts": ("impounded_on", "cases by the day impounded"),
    "security_status": ("deposited_on", "security deposits by the day deposited"),
    "fund_movements": ("due_on", "movements by the day due"),
    "reconciliation": ("period_on", "expected credits by the day due; entries nothing was due for by the day "
                                    "entered"),
    "ledger_entries": ("entry_on", "ledger entries by the day entered"),
    "balance_items": ("on_date", "dues by the day due, entries by the day entered"),
    "findings": ("event_on", "findings by the day of the event"),
    "corrections": ("event_on", "corrections by the day of the row corrected"),
    "monthly_accounts": ("month", "monthly rows by month"),
    "fund_balances": ("month", "monthly rows by month"),
    "district_months": ("month", "monthly rows by month"),
    "adjustments": ("month", "changes to closed months by the month closed"),
}
# Models whose `district` is not the district of their rows: that is in another column.
DISTRICT_COLUMN = {"adjustments": "pound_district"}        # adjustments' district is the close's ('all')
# Models whose rows carry no local authority (they can be cut by district and period only).
NO_AUTHORITY = frozenset({"corrections", "district_months"})


@dataclass(frozen=True)
class Scope:
    """What to read. None means all: every district, every local authority, the whole history."""

    district: str | None = None
    local_authority: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    period_label: str = "the whole history"

    @property
    def months(self) -> tuple[str | None, str | None]:
        """The first and last month the period touches (a monthly row belongs if its month does)."""
        return (f"{self.start:%Y-%m}" if self.start else None, f"{self.end:%Y-%m}" if self.end else None)

    def runs_past(self, as_of: dt.date | None) -> str | None:
        """What a page, the workbook's cover and the command say when the period runs past the
        accounts' date; None when it does not."""
        if as_of is None or self.end is None or self.end <= as_of:
            return None
        if self.start is not None and self.start > as_of:
            return (f"the period begins after {as_of:%d-%m-%Y}, the date the accounts are drawn up to: no entry "
                    "of it is in them; only dues already known to fall in it are (unclaimed surplus the DM must "
                    "credit six months after a sale)")
        return (f"the period runs past {as_of:%d-%m-%Y}, the date the accounts are drawn up to: entries stop on "
                "that day; dues already known to fall later in the period (unclaimed surplus the DM must credit "
                "six months after a sale) are counted on their due days")

    def where(self, model: str, period: bool = True) -> list:
        """The conditions that keep a model's rows in the scope (without the period if period=False)."""
        out = []
        if self.district:
            out.append(Cond(DISTRICT_COLUMN.get(model, "district"), "=", self.district))
        if self.local_authority:
            if model in NO_AUTHORITY:
                raise ValueError(f"model {model} has no local authority to cut by")
            out.append(Cond("local_authority_id", "=", self.local_authority))
        if period and (self.start or self.end):
            if model not in BASIS:
                raise ValueError(f"model {model} has no period basis")
            column = BASIS[model][0]
            first, last = self.months if column == "month" else (self.start, self.end)
            if first:
                out.append(Cond(column, ">=", first))
            if last:
                out.append(Cond(column, "<=", last))
        return out

    def describe(self) -> list[tuple[str, str]]:
        """(what, value) lines for a cover sheet or a page heading."""
        return [("district", self.district or "every district"),
                ("local authority", self.local_authority or "every local authority"),
                ("period", self.period_label),
                ("from", self.start.isoformat() if self.start else "the first row"),
                ("to", self.end.isoformat() if self.end else "the last row")]


def financial_year(text: str) -> tuple[dt.date, dt.date]:
    """1 April to 31 March of a financial year written 2026-27."""
    m = re.fullmatch(r"(\d{4})-(\d{2})", str(text or "").strip())
    if not m or (int(m.group(1)) + 1) % 100 != int(m.group(2)):
        raise PoundError(f"{text!r} is not a financial year written like 2026-27 (1 April 2026 to 31 March 2027)")
    y = int(m.group(1))
    return dt.date(y, 4, 1), dt.date(y + 1, 3, 31)


def make_scope(district: str | None = None, local_authority: str | None = None, financial_year_: str | None = None,
               month: str | None = None, start: dt.date | None = None, end: dt.date | None = None) -> Scope:
    """A Scope from the command line's choices: at most one of a financial year, a month, or --from/--to."""
    chosen = [n for n, v in (("--financial-year", financial_year_), ("--month", month),
                             ("--from/--to", start or end)) if v]
    if len(chosen) > 1:
        raise PoundError(f"give one period, not {' and '.join(chosen)}")
    label = "the whole history"
    if financial_year_:
        start, end = financial_year(financial_year_)
        label = f"financial year {financial_year_.strip()}"
    elif month:
        start, end = month_bounds(month)
        label = f"month {month}"
    elif start or end:
        if start and end and end < start:
            raise PoundError(f"--to {end} is before --from {start}")
        label = f"{start or 'the first row'} to {end or 'the last row'}"
    return Scope(district or None, (local_authority or "").strip() or None, start, end, label)


def scope_of(con, district=None, local_authority=None, financial_year=None, month=None, start=None, end=None):
    """The scope these name, its district and local authority checked against the database."""
    from pipeline.read.database import check_district, check_local_authority, district_of

    scope = make_scope(district, local_authority, financial_year, month, start, end)
    district = check_district(con, scope.district)
    la = check_local_authority(con, scope.local_authority, district)
    # a local authority is in one district: what is cut by district (corrections) is cut by its own
    return replace(scope, district=district or (district_of(con, la) if la else None), local_authority=la)
