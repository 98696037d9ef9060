"""The monthly accounts review (for the District Magistrate): what it reads, and from where.

Every function is a selection of finished models (pipeline.read.select) for one month
and, optionally, one district: the month's roll-forward and money (monthly_accounts),
the money received and passed on (fund_movements), the sales completed (case_accounts),
the findings (findings) and the deadlines after the month (deadlines).
"""

from __future__ import annotations

from pipeline.core.months import month_bounds
from pipeline.read.database import parameter
from pipeline.read.reconciliation import HEAD_LABELS, LEDGER_NAMES
from pipeline.read.scope import make_scope
from pipeline.read.select import (
    Cond,
    between,
    col,
    count,
    count_if,
    largest,
    select,
    select_first,
    select_records,
    total,
    totals,
)
from pipeline.reports import html as h

# The review statuses of a finding waiting for a decision: none yet (or the DM reopened it), or one
# made on figures a correction has since moved (findings.sql).
OPEN = ["open", "reopened"]

ACCOUNT_LABELS = {
    "local_fund": "Local fund of the local authority",
    "pound_keeper": "Pound-keeper (feeding charges)",
    "pound_keeper_custody": "Security held by the pound-keeper",
    "protest_deposit_held": "Deposits under protest, held",
    "dm_deposit": "District Magistrate's deposit (unclaimed surplus)",
    "dm_remittance": "Sent to the District Magistrate (fines from sales)",
    "sale_officer": "Officer conducting the sale (expenses)",
    "owner": "Owner",
    "state_government": "State Government",
    "payer": "The payer (at a pound, or of a s.14(3) fine)",
    "buyer": "Buyer at an auction",
    "unallocated": "Not apportioned (no rate)",
}

# The money measures of monthly_accounts shown per pound, with the words the page uses.
MONEY_BY_POUND = (
    ("fines_received", "fines received: paid at release (s.18(2)) and deducted from sales (s.18(1))"),
    ("feeding_received", "feeding charges received (s.18(3))"),
    ("protest_deposits", "deposits under protest (s.16(1))"),
    ("security_received", "security received (s.13, s.18(4))"),
    ("security_refunded", "security refunded (s.13(2))"),
    ("security_forfeited", "security forfeited (s.13(2))"),
    ("sale_proceeds", "proceeds of sales completed"),
    ("sale_expenses_deducted", "expenses of sale deducted from those proceeds (s.17(2))"),
    ("sale_expenses_incurred", "expenses of the auctions held in the month"),
    ("surplus_to_dm", "surplus to the District Magistrate (s.18(5))"),
    ("local_fund_due", "credits to the local fund falling due in the month"),
    ("local_fund_ledger", "credits entered in the local fund's ledger in the month for this pound's cases (a late "
                          "one counts in the month entered; an entry naming no case, such as a lease rent, is "
                          "on the reconciliation page only)"),
)

# Every measure a change to a closed month can name (adjustments), in the page's words.
MEASURE_WORDS = {
    "heads_start": "heads in the pound at the start of the month", "heads_impounded": "heads impounded",
    "heads_released": "heads released", "heads_sold": "heads sold",
    "heads_end": "heads in the pound at the end of the month", "heads_check": "head-count roll-forward check",
    "heads_moved": "heads impounded, released or sold", "cases_impounded": "cases impounded",
    "findings": "findings whose event falls in the month", "findings_high": "of which of high severity",
    "finding_raised_after_close": "a finding raised since the close",
    "finding_no_longer_raised": "a finding no longer raised",
    **dict(MONEY_BY_POUND),
    # a figure of page 1, the page signed (R14)
    **{f"page1_waiting_{s}": f"page 1: findings waiting up to the month, {s}" for s in ("high", "medium", "low")},
    **{f"page1_of_month_{s}": f"page 1: findings waiting of the month itself, {s}" for s in ("high", "medium", "low")},
    "page1_oldest_days": "page 1: days the oldest finding waiting has waited (on the close's as-of date)",
    "page1_overdue_credits": "page 1: credits and receipts overdue (on the close's as-of date)",
    "page1_overdue_money": "page 1: money overdue, not credited (on the close's as-of date)",
    # a reconciliation row of the month whose difference moved (its reference is the subject)
    **{f"reconciliation {ledger} {head}": f"the reconciliation's difference (ledger - expected): {LEDGER_NAMES[ledger]}, "
       f"{words}" for ledger in LEDGER_NAMES for head, words in HEAD_LABELS.items()},
}

ADJUSTMENT_LABELS = {"closed_shown": "sealed at the close", "current_shown": "now", "difference_shown": "now - sealed",
                     "rule_id": "finding's rule", "subject_id": "finding's subject, or reconciliation's reference"}

SALE_MONEY = ("sale_proceeds", "sale_expenses", "sale_paid_feeding", "sale_paid_fines", "sale_paid_security",
              "sale_paid_feeding_overdue",
              "balance_to_owner", "surplus_unclaimed", "unrecovered")


def district_cond(district: str | None) -> list[Cond]:
    return [Cond("district", "=", district)] if district else []


def rollforward(con, month: str, district: str | None = None):
    """Per pound: heads at the start of the month, impounded (of which seized again under s.16(2)),
    released, sold, disposed of after a rejected bid (s.15(3) proviso), at the end (and their totals,
    for the table's total row)."""
    return totals(con, select(con, "monthly_accounts",
                  col("pound_id"), col("pound_name"), col("taluk"), col("heads_start"), col("heads_impounded"),
                  col("heads_reseized"), col("heads_released"), col("heads_sold"), col("heads_disposed"),
                  col("heads_end"), col("cases_impounded"),
                  col("rollforward_ties"),
                  where=[Cond("month", "=", month), *district_cond(district)], order=["pound_id"], key=["pound_id"]))


def month_totals(con, month: str, district: str | None = None):
    """The month's heads in and out, in all the pounds in scope (one row)."""
    return select(con, "monthly_accounts", total("heads_impounded"), total("heads_released"), total("heads_sold"),
                  total("heads_end"), where=[Cond("month", "=", month), *district_cond(district)])


def money_by_pound(con, month: str, district: str | None = None):
    """The month's money measures of monthly_accounts, one row per pound (and each one's total)."""
    return totals(con, select(con, "monthly_accounts", col("pound_id"), *(col(c) for c, _ in MONEY_BY_POUND),
                              where=[Cond("month", "=", month), *district_cond(district)], order=["pound_id"],
                              key=["pound_id"]))


def _movements(con, month: str, district: str | None, hop: Cond):
    return totals(con, select(con, "fund_movements", col("section"), col("from_account"), col("account"),
                              total("amount"), count("movements"),
                              where=[Cond("month", "=", month), hop, *district_cond(district)],
                              order=["section", "account", "from_account"]))


def money_received(con, month: str, district: str | None = None):
    """Money received in the month (first movements, from a payer or a buyer), by section and account."""
    return _movements(con, month, district, Cond("hop", "=", 1))


def money_passed_on(con, month: str, district: str | None = None):
    """Onward movements due in the month: money already held, passed on under the Act."""
    return _movements(con, month, district, Cond("hop", ">", 1))


def received_total(con, month: str, district: str | None = None):
    return select(con, "fund_movements", total("amount"),
                  where=[Cond("month", "=", month), Cond("hop", "=", 1), *district_cond(district)])


def sales_in_month(con, month: str, district: str | None = None, first: int | None = None):
    """Cases whose sale was completed in the month (last accepted auction in it) and where the proceeds went
    (with `first`, the first so many and how many there are: select_first)."""
    start, last = month_bounds(month)
    return select_first(con, "case_accounts", col("case_id"), col("pound_id"), col("last_sale_id"), col("sold_on"),
                        col("s17_sale"), col("head_sold"), *(col(c) for c in SALE_MONEY), first=first,
                        where=[*between("sold_on", start, last), *district_cond(district)], order=["sold_on", "case_id"],
                        key=["case_id"])


def findings_in_month(con, month: str, district: str | None = None):
    """Findings whose event falls in the month: open ones first, then high severity first, then by date."""
    return select(con, "findings", col("review_status"), col("severity"), col("rule_id"), col("section"),
                  col("subject_kind"), col("subject_id"), col("case_id"), col("pound_id"), col("event_on"),
                  col("days_open"), col("detail"), col("review_note"),
                  where=[Cond("month", "=", month), *district_cond(district)],
                  order=["review_rank", "severity_rank", "event_on", "rule_id", "subject_id"],
                  key=["rule_id", "subject_id"])


def findings_by_rule(con, month: str, district: str | None = None):
    """How many findings of the month each rule raised, by severity (the chart beside the list)."""
    return select(con, "findings", col("rule_id"), col("severity"), count("findings"),
                  where=[Cond("month", "=", month), *district_cond(district)], order=["rule_id", "severity"],
                  key=["rule_id", "severity"])


def open_findings_by_age(con, month: str, district: str | None = None):
    """Every finding up to the month still waiting for a decision on the accounts' date, by how long."""
    return totals(con, select(con, "findings", col("open_age"), count("findings"),
                              count_if("severity", "high", "high"), largest("days_open", "longest_days"),
                              where=[Cond("month", "<=", month), Cond("review_status", "in", OPEN),
                                     *district_cond(district)],
                              order=["longest_days DESC"], key=["open_age"]))


def open_after(con, month: str, label: str, district: str | None = None) -> list:
    """A note on the findings of the months after this one that are open on the accounts' date (the
    accounts can be drawn up to a day after the month): in their own month's review, not counted in
    this one's; none when there are none."""
    later = int(select(con, "findings", count("findings"),
                       where=[Cond("month", ">", month), Cond("review_status", "in", OPEN),
                              *district_cond(district)])["findings"].iloc[0])
    if not later:
        return []
    many = later > 1
    return [h.note(f"{later} more finding{'s' if many else ''} of events after {label} {'are' if many else 'is'} "
                   "open on the accounts' date too, and not counted here: each is in the review of its own "
                   "month (and in findings.csv).", "note")]


def open_from_earlier_months(con, month: str, district: str | None = None, first: int | None = None):
    """Findings of the months before this one still waiting for a decision, longest waiting first
    (with `first`, as sales_in_month)."""
    return select_first(con, "findings", col("month"), col("severity"), col("rule_id"), col("section"),
                        col("subject_id"), col("case_id"), col("pound_id"), col("event_on"), col("days_open"),
                        col("detail"), first=first,
                        where=[Cond("month", "<", month), Cond("review_status", "in", OPEN), *district_cond(district)],
                        order=["event_on", "severity_rank", "rule_id", "subject_id"], key=["rule_id", "subject_id"])


def reopened_findings(con, month: str, district: str | None = None):
    """Findings up to the month whose decision was made on other figures: a correction loaded since
    moved them, so the finding is open again for a fresh decision (the earlier one is kept in
    finding_reviews.csv, marked so)."""
    return select(con, "findings", col("month"), col("severity"), col("rule_id"), col("subject_id"),
                  col("pound_id"), col("reviewed_on"), col("review_note"), col("detail"),
                  where=[Cond("month", "<=", month), Cond("review_status", "=", "reopened"), *district_cond(district)],
                  order=["severity_rank", "event_on", "rule_id", "subject_id"], key=["rule_id", "subject_id"])


def decided_findings(con, month: str, district: str | None = None):
    """The District Magistrate's decisions in force on the findings up to the month, by decision."""
    return totals(con, select(con, "findings", col("review_status"), count("findings"),
                              count_if("severity", "high", "high"),
                              where=[Cond("month", "<=", month), Cond("review_rank", "=", 1),
                                     *district_cond(district)],
                              order=["review_status"], key=["review_status"]))


def corrections_to_earlier_months(con, month: str, district: str | None = None):
    """Corrections loaded since the month began that change rows of earlier months."""
    first, _ = month_bounds(month)
    return select(con, "corrections", col("register"), col("key"), col("version"), col("field"), col("was"),
                  col("now"), col("correction_note"), col("event_month"), col("loaded_on"), col("file"), col("row"),
                  where=[Cond("event_month", "<", month), Cond("loaded_on", ">=", first), *district_cond(district)],
                  order=["event_month", "register", "key", "version", "field_position"],
                  key=["register", "key", "version", "field"])


def month_close(con, month: str, district: str | None = None):
    """The close in force of the month (of the district, or of every district), if it was closed."""
    scope = ["all"] + ([district] if district else [])
    return select(con, "month_closes", col("district"), col("closed_by"), col("closed_at"), col("note"), col("reopen"),
                  col("closes_of_month"),
                  where=[Cond("month", "=", month), Cond("in_force", "=", True), Cond("district", "in", scope)],
                  order=["closed_at DESC"], key=["district"], limit=1)


def changes_to_closed_months(con, month: str, district: str | None = None, local_authority: str | None = None):
    """How the figures of the months closed up to this one have moved since their close, and why
    (of one local authority's pounds, if named): the scope cuts adjustments by its pounds' district
    (read/scope.py), as the auditor's workbook does."""
    upto = make_scope(district, local_authority, end=month_bounds(month)[1])
    return select(con, "adjustments", col("month"), col("pound_id"), col("measure"), col("rule_id"), col("subject_id"),
                  col("closed_shown"), col("current_shown"), col("difference_shown"), col("causes"),
                  scope=upto, order=["month", "pound_id", "measure", "rule_id", "subject_id"],
                  key=["month", "pound_id", "measure", "rule_id", "subject_id"])


def decisions_naming_no_finding(con, month: str):
    """Decisions recorded up to the month whose rule and subject name no finding the accounts raise:
    a subject mistyped in finding_reviews, or a finding no longer raised after a correction. Such a
    decision belongs to no pound, so every district's review lists it."""
    _, last = month_bounds(month)
    return select(con, "review_log", col("reviewed_on"), col("rule_id"), col("subject_id"), col("decision"),
                  col("reviewed_by"), col("source"),
                  where=[Cond("finding_raised", "=", False), Cond("reviewed_on", "<=", last)],
                  order=["reviewed_on", "rule_id", "subject_id"], key=["rule_id", "subject_id", "reviewed_on"])


def high_findings(con, month: str, district: str | None = None):
    return select(con, "findings", count_if("severity", "high", "high_findings"),
                  where=[Cond("month", "=", month), *district_cond(district)])


def deadlines(con, month: str, district: str | None = None, first: int | None = None):
    """Cases pending at the end of the month that reach a statutory deadline within the horizon
    (with `first`, as sales_in_month)."""
    return select_first(con, "deadlines", col("due_on"), col("days_after_month_end"), col("case_id"), col("pound_id"),
                        col("section"), col("deadline"), col("what"), col("by_accounts_date"), first=first,
                        where=[Cond("month", "=", month), *district_cond(district)],
                        order=["due_on", "case_id", "section", "deadline"], key=["case_id", "section", "deadline"])


def deadline_kinds(con):
    """The deadlines the list looks ahead to, and the day each falls on with the readings in force."""
    return select(con, "deadline_kinds", col("deadline"), col("day"), col("section"), col("note"), order=["rank"],
                  key=["deadline"])


def deadline_count(con, month: str, district: str | None = None):
    return select(con, "deadlines", count("deadlines"), where=[Cond("month", "=", month), *district_cond(district)])


def horizon(con) -> int:
    """The days after a month's end that its list of deadlines looks ahead (parameter deadline_horizon)."""
    return int(parameter(con, "deadline_horizon", 7))


def has_activity(con, month: str, district: str | None = None) -> bool:
    """Whether anything was in a pound, moved, fell due or was found in the month."""
    active = select_records(con, "district_months", count_if("active", True, "active"),
                            where=[Cond("month", "=", month), *district_cond(district)])
    return bool(active[0]["active"])
