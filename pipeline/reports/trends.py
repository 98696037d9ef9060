"""The impoundment trends (for analysts): what they read, and from where.

Selections of monthly_accounts (impoundments by month and pound), impoundment_cohorts
(the cases impounded each month and what became of them) and case_accounts (time to
close, repeat owners), every month up to the month of the report.
"""

from __future__ import annotations

from pipeline.core.months import month_bounds, months_between
from pipeline.read.select import (
    Cond,
    col,
    count,
    distinct,
    largest,
    listing,
    median,
    quartile,
    select,
    select_first,
    share,
    smallest,
    total,
    totals,
)


def _district(district: str | None) -> list[Cond]:
    return [Cond("district", "=", district)] if district else []


def months_upto(con, month: str) -> list[str]:
    """Every month from the first one in the accounts to `month` (only `month` when the accounts
    start after it)."""
    first = select(con, "monthly_accounts", smallest("month"))["month"].iloc[0]
    return months_between(min(first or month, month), month)


def impoundments_by(con, month: str, district: str | None, by: str, shown: int):
    """Heads impounded per month by pound (by='pound_id') or taluk, up to the month: the `shown` - 1
    with the most heads over those months, each on its own (month, name, heads_impounded), and the
    rest together (month, heads_impounded) when there are more than `shown`, with how many they
    are: a legend of 200 pounds helps no one."""
    where = [Cond("month", "<=", month), *_district(district)]
    ranked = list(select(con, "monthly_accounts", col(by), total("heads_impounded"), where=where,
                         order=["heads_impounded DESC", by], key=[by])[by])
    own = ranked if len(ranked) <= shown else ranked[: shown - 1]
    each = select(con, "monthly_accounts", col("month"), col(by), total("heads_impounded"),
                  where=[*where, Cond(by, "in", own)], order=["month", by], key=["month", by])
    rest = select(con, "monthly_accounts", col("month"), total("heads_impounded"),
                  where=[*where, Cond(by, "not_in", own)], order=["month"], key=["month"]) \
        if len(own) < len(ranked) else None
    return own, each, rest, len(ranked) - len(own)


def impoundments_by_class(con, month: str, district: str | None = None):
    """Heads impounded per month and animal class, up to the month (and each month's total)."""
    return totals(con, select(con, "impoundment_cohorts", col("month"), col("animal_class"), total("heads"),
                              where=[Cond("month", "<=", month), *_district(district)],
                              order=["month", "animal_class"]), by="month")


def outcomes_by_month(con, month: str, district: str | None = None):
    """By month of impoundment: cases, how many were sold unclaimed (s.15), had any head sold, are still held."""
    return select(con, "impoundment_cohorts", col("month"), total("cases"), total("sold_unclaimed"),
                  total("sold_any"), total("still_in_pound"), share("sold_unclaimed", "cases", "share_unclaimed"),
                  share("sold_any", "cases", "share_sold"),
                  where=[Cond("month", "<=", month), *_district(district)], order=["month"])


def _closed_by(month: str, district: str | None) -> list[Cond]:
    _, last = month_bounds(month)
    return [Cond("impounded_on", "<=", last), Cond("closed_on", "<=", last), *_district(district)]


def time_to_close(con, month: str, district: str | None = None):
    """Cases impounded and closed by the end of the month: days from impounding to closing."""
    return select(con, "case_accounts", col("case_id"), col("pound_id"), col("taluk"), col("animal_class"),
                  col("status"), col("impounded_on"), col("closed_on"), col("days_to_close"),
                  where=_closed_by(month, district),
                  order=["impounded_on", "case_id"], key=["case_id"])


def time_to_close_drawn(con, month: str, district: str | None, points: int):
    """What the chart of time to release draws: the cases of time_to_close one by one while there
    are at most `points` of them; past that, by how they closed, the quartiles, the shortest and
    the longest (status, cases, q1, median, q3, shortest, longest), so that the cases of a whole
    state are not read one by one to draw a box per status."""
    cases = select(con, "case_accounts", count("cases"), where=_closed_by(month, district))
    if int(cases["cases"].iloc[0]) <= points:
        return time_to_close(con, month, district)
    return select(con, "case_accounts", col("status"), count("cases"), quartile("days_to_close", 1, "q1"),
                  median("days_to_close", "median"), quartile("days_to_close", 3, "q3"),
                  smallest("days_to_close", "shortest"), largest("days_to_close", "longest"),
                  where=_closed_by(month, district), order=["status"])


def time_to_close_summary(con, month: str, district: str | None = None):
    """The same cases by how they closed: how many, median and longest days."""
    return select(con, "case_accounts", col("status"), count("cases"), median("days_to_close", "median_days"),
                  largest("days_to_close", "longest_days"), where=_closed_by(month, district),
                  order=["cases DESC", "status"])


def repeat_owners(con, month: str, district: str | None = None, first: int | None = None):
    """Owners with more than one case impounded up to the month, most cases first (with `first`,
    only the first so many of them: select_first)."""
    _, last = month_bounds(month)
    return select_first(con, "case_accounts", col("owner_id"), largest("owner_name"), count("cases"),
                        total("head_count", "heads"), smallest("impounded_on", "first_impounded"),
                        largest("impounded_on", "last_impounded"), distinct("pound_id", "pounds"),
                        listing("case_id", "case_ids"), first=first,
                        where=[Cond("owner_id", "not_null"), Cond("impounded_on", "<=", last), *_district(district)],
                        having=[Cond("cases", ">", 1)], order=["cases DESC", "owner_id"])


def fines_due_vs_collected(con, month: str, district: str | None = None):
    """By month of impoundment: fines due (s.10(1)) and what of them reached the local fund (s.18(2))."""
    return totals(con, select(con, "impoundment_cohorts", col("month"), total("cases"), total("fines_due"),
                              total("fines_collected"), total("fines_not_collected"),
                              where=[Cond("month", "<=", month), *_district(district)], order=["month"]))
