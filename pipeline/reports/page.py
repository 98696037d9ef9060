"""What every report page has: its opening (a read-only connection, the district checked,
plotly set up offline), its parameters block, and the month the demo shows."""

from __future__ import annotations

import datetime as dt

from pipeline.build import record
from pipeline.core import paths
from pipeline.core.errors import PoundError
from pipeline.core.months import day_text, month_bounds, month_label
from pipeline.read.balances import COLUMNS, MONEY
from pipeline.read.database import (
    as_of,
    changed_parameters,
    check_district,
    check_local_authority,
    connect,
    loaded_files,
    rows_left_out,
)
from pipeline.read.scope import make_scope
from pipeline.read.select import col, select, total
from pipeline.reports import html as h
from pipeline.reports.html import Html, parameters_table
from pipeline.reports.review import month_close

SAMPLE_AS_OF = dt.date(2026, 11, 30)    # the sample registers run from March to November 2026


def open_report(db, month: str, district: str | None):
    """What every report notebook starts with: plotly set up for an offline page, a read-only
    connection, the district checked against the database, and the month's label."""
    from pipeline.reports import charts

    charts.setup()
    con = connect(paths.database(db))
    return con, check_district(con, district), month_label(month)


def parameters_block(con, *, db, month: str, district: str | None, report: str, closing: bool = False,
                     sealing: str | None = None, period=None) -> Html:
    """The report's parameters and what it was drawn from, for the top of the page; with `closing`,
    whether the District Magistrate has closed the month, by whom and when (`sealing`: the close
    this copy is being sealed in, which the database does not hold yet); with `period` (a scope
    of another period or of one local authority), what the reconciliation's balances cover."""
    first, last = month_bounds(month)
    asof = as_of(con)
    changed = changed_parameters(con)
    files, loaded_at = loaded_files(con)
    rows = [
        ("Report", report),
        ("Month", f"{month} ({month_label(month)}: {day_text(first)} to {day_text(last)})"),
        ("District", district or "all districts"),
        ("Database", str(paths.database(db))),
        ("Accounts drawn up to (as of)", day_text(asof) if asof else "not recorded"),
        ("Register files loaded", f"{files:,}" + (f", last on {day_text(loaded_at)} {loaded_at:%H:%M}" if loaded_at else "")),
        ("Rows dated after the as-of date, left out", rows_left_out(con)),
        ("Readings changed from the defaults",
         "; ".join(f"{n} = {v}" for n, v in changed) if changed else "none (every statutory reading is the default)"),
    ]
    if period is not None and (period.local_authority or (period.start, period.end) != (first, last)):
        rows.append(("Period of the balances (section 2b)", period.period_label
                     + (f", local authority {period.local_authority}" if period.local_authority else "")))
    if closing:
        rows.append(("Month closed", closed_text(con, month, district, sealing)))
    warnings = []
    if asof and last > asof:
        warnings.append(f"The month is not over in these accounts: they are drawn up to {day_text(asof)}, before "
                        f"its last day ({day_text(last)}). Nothing after that date is in these figures, and a deadline "
                        "falling after it is not yet counted as missed.")
    stale = record.stale_notice(con)
    if stale:
        warnings.append(stale)
    return parameters_table(rows, warnings)


def busiest_month(con) -> str:
    """The month with the most heads impounded, released or sold (the latest one on a tie)."""
    busiest = select(con, "monthly_accounts", col("month"), total("heads_moved"),
                     order=["heads_moved DESC", "month DESC"], limit=1)
    if len(busiest) == 0:
        raise PoundError("the database holds no monthly accounts")
    return str(busiest["month"].iloc[0])


def closed_words(by: str, at: dt.datetime, district: str | None, closes: int, reopen: str | None,
                 sealed: bool = False) -> str:
    """What the monthly review says of a month's close: who, when, for which district, and why it was
    closed again; `sealed`, in the copy `pound close` seals (the close is recorded only after it)."""
    text = f"yes, by {by} on {day_text(at.date())} {at:%H:%M}"
    if sealed:
        text += ": this copy is the one sealed in the close"
    if district and district != "all":
        text += f" (district {district})"
    if closes > 1:
        text += f"; closed again ({closes} closes), because: {reopen}"
    return text


def closed_text(con, month: str, district: str | None, sealing: str | None = None) -> str:
    """Whether the month is closed, in words (`sealing`: in the copy a close seals, what it says of itself)."""
    return sealing or _closed_text(con, month, district)


def _closed_text(con, month: str, district: str | None) -> str:
    c = month_close(con, month, district)
    if len(c) == 0:
        return "no: the month has not been closed"
    r = c.iloc[0]
    return closed_words(r["closed_by"], r["closed_at"], r["district"], int(r["closes_of_month"]), r["reopen"])


def report_scope(con, month: str, district: str | None, local_authority: str | None,
                 period_from: str | None, period_to: str | None):
    """The local authority checked against the database, and the scope of a page's balances:
    the period from..to when given, else the month."""
    la = check_local_authority(con, local_authority, district)
    if period_from or period_to:
        return la, make_scope(district, la, start=dt.date.fromisoformat(period_from) if period_from else None,
                              end=dt.date.fromisoformat(period_to) if period_to else None)
    return la, make_scope(district, la, month=month)


def balances_html(scope_balances: list[dict], scope, drawn_up_to: dt.date | None = None) -> list[h.Html]:
    """The heading and table of a scope's balances (pipeline/read/balances.py), and what the
    workbook's cover says too when the period runs past the accounts' date."""
    import pandas as pd

    heading = h.heading(scope.period_label + (f", local authority {scope.local_authority}" if scope.local_authority
                                             else ""), 3)
    table = h.table(pd.DataFrame(scope_balances, columns=list(COLUMNS)), table_id="balances", money=sorted(MONEY),
                    labels={"local_authority_name": "local authority",
                            "opening_due_not_credited": "opening: due, not credited",
                            "closing_due_not_credited": "closing: due, not credited",
                            "held_start": "held by his ledger at start", "held_end": "held by his ledger at end",
                            "held_due_start": "should hold at start", "held_due_end": "should hold at end",
                            "credited_for_period_dues": "of which for the period's dues",
                            "credited_for_earlier_dues": "of which for earlier dues",
                            "credited_other": "of which for neither",
                            "missing_at_end": "of closing: missing", "unexpected_at_end": "of closing: unexpected"},
                    essential=["ledger", "local_authority_name", "opening_due_not_credited", "due", "credited",
                               "closing_due_not_credited", "missing_at_end", "unexpected_at_end", "held_end",
                               "held_due_end", "ties"],
                    empty="Nothing was due or credited to any local fund.")
    source = h.note("Every figure of a row is a sum of the model balance_items (one row for each due and each "
                    "ledger entry, with its day) for that ledger and local authority, over the days its column "
                    "names: before the period, in it, or up to its end.", "note")
    return [heading, *_why_section_2_differs(scope_balances, scope, drawn_up_to), source, table]


def _why_section_2_differs(scope_balances: list[dict], scope, drawn_up_to: dt.date | None) -> list[h.Html]:
    """A note on why the DM's holding at the period's end can differ from section 2's, which is on
    the accounts' date: the period runs past that date, or stops before it (none otherwise)."""
    past = scope.runs_past(drawn_up_to)
    if past:
        return [h.note(past[0].upper() + past[1:] + ". That is why what he should hold at the end "
                       "can differ from section 2, which stops on that day.", "warn")]
    holds = any(r["ledger"] == "dm_deposit" for r in scope_balances)      # the note is about the DM's holding
    if holds and drawn_up_to is not None and scope.end is not None and scope.end < drawn_up_to:
        return [h.note(f"These balances stop at the period's last day, {scope.end:%d-%m-%Y}; section 2 "
                       f"is on {drawn_up_to:%d-%m-%Y}, the date the accounts are drawn up to. What the "
                       "District Magistrate holds at the end of the period can therefore differ from "
                       "what section 2 says he holds: his receipts, credits and refunds in between make "
                       "the difference.", "note")]
    return []
