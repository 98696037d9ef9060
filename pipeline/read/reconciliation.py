"""The reconciliation, read for auditors: by the reconciliation report and the audit workbook.

Selections of the finished `reconciliation` model (one row per expected credit or ledger
entry key) and of `dm_deposit_position` (what the District Magistrate should hold and
what his ledger shows he holds), filtered by district.
"""

from __future__ import annotations

from pipeline.core.months import month_bounds
from pipeline.read.select import (
    Cond,
    between,
    col,
    count,
    count_if,
    either,
    select,
    select_first,
    select_records,
    total,
    total_if,
    totals,
)

STATUS_ORDER = ("matched", "late", "early", "amount_mismatch", "missing", "pending", "unexpected")
# What each status contributes to the two totals of a ledger.
EXPECTED_SIDE = ("matched", "late", "early", "amount_mismatch", "missing", "pending")
LEDGER_SIDE = ("matched", "late", "early", "amount_mismatch", "unexpected")
LEDGER_NAMES = {"local_fund": "local funds", "dm_deposit": "the District Magistrate's deposit"}
HEAD_LABELS = {"fines": "fines (s.18(2))", "surplus": "unclaimed surplus (s.18(5))",
               "receipt": "surplus received by the DM (s.18(5))",
               "credit_to_local_fund": "surplus credited by the DM to the local fund (s.18(5))",
               "refund_to_claimant": "refunded to a claimant", "other": "other"}


def _district(district: str | None, local_authority: str | None = None) -> list[Cond]:
    """The place a page is for: a district, and within it (or not) one local authority."""
    return ([Cond("district", "=", district)] if district else []) + \
        ([Cond("local_authority_id", "=", local_authority)] if local_authority else [])


def by_authority(con, district: str | None = None, local_authority: str | None = None):
    """Per ledger, head and local authority: expected, credited, difference, breaks and each status."""
    return select(con, "reconciliation", col("ledger"), col("head"), col("local_authority_id"),
                  col("local_authority_name"), total("expected_amount", "expected"),
                  total("ledger_amount", "credited"), total("difference"), total("difference_due"),
                  count_if("is_break", True, "breaks"),
                  *(count_if("status", s, s) for s in STATUS_ORDER),
                  where=_district(district, local_authority), order=["ledger", "local_authority_id", "head"],
                  key=["ledger", "head", "local_authority_id"])


def summary(con, district: str | None = None, local_authority: str | None = None, reader=select):
    """Per local authority, ledger and head: the totals, the part of the difference on credits
    already due, and the amount (in rupees, not a count as on the page) of each status (the
    workbook's summary sheet), with the breaks. `reader`: select (a DataFrame) or select_rows
    (names and a cursor, for the workbook, which need not import pandas)."""
    return reader(con, "reconciliation", col("local_authority_id"), col("local_authority_name"), col("district"),
                  col("ledger"), col("head"), total("expected_amount", "expected"),
                  total("ledger_amount", "credited"), total("difference"), total("difference_due"),
                  total_if("expected_amount", "status", "matched", "matched_amount"),
                  total_if("expected_amount", "status", "late", "late_amount"),
                  total_if("expected_amount", "status", "early", "early_amount"),
                  total_if("expected_amount", "status", "amount_mismatch", "mismatch_expected_amount"),
                  total_if("ledger_amount", "status", "amount_mismatch", "mismatch_credited_amount"),
                  total_if("expected_amount", "status", "missing", "missing_amount"),
                  total_if("expected_amount", "status", "pending", "pending_amount"),
                  total_if("ledger_amount", "status", "unexpected", "unexpected_amount"),
                  count_if("is_break", True, "breaks"),
                  where=_district(district, local_authority), order=["local_authority_id", "ledger", "head"],
                  key=["local_authority_id", "ledger", "head"])


def dm_deposit_held(con, district: str | None = None, local_authority: str | None = None):
    """Per local authority: what the DM should hold in deposit and what his ledger shows he holds."""
    return totals(con, select(con, "dm_deposit_position", col("local_authority_id"), col("local_authority_name"),
                              col("surplus_received_due"), col("surplus_credit_due"), col("held_due"),
                              col("receipts_booked"), col("credits_booked"), col("refunds_booked"),
                              col("held_booked"), col("held_difference"),
                              where=_district(district, local_authority), order=["local_authority_id"],
                              key=["local_authority_id"]))


def _ledger(ledger: str | None, head: str | None) -> list[Cond]:
    return ([Cond("ledger", "=", ledger)] if ledger else []) + ([Cond("head", "=", head)] if head else [])


def by_status(con, district: str | None = None, ledger: str | None = None, local_authority: str | None = None,
              head: str | None = None):
    """Per ledger and status: rows, expected and credited (the parts of the ties); of one head if named."""
    return totals(con, select(con, "reconciliation", col("ledger"), col("status"), count("rows"),
                              total("expected_amount", "expected"), total("ledger_amount", "credited"),
                              where=[*_district(district, local_authority), *_ledger(ledger, head)],
                              order=["ledger", "status"], key=["ledger", "status"]))


def status_by_authority(con, district: str | None = None, local_authority: str | None = None):
    """Per ledger, local authority, head and status: expected, credited, and what the rows stand for
    (status_amount: the expected amount, or for an unexpected entry the amount entered)."""
    return select(con, "reconciliation", col("ledger"), col("local_authority_id"), col("head"), col("status"),
                  total("expected_amount", "expected"), total("ledger_amount", "credited"),
                  total("status_amount", "amount"),
                  where=_district(district, local_authority), order=["ledger", "local_authority_id", "head", "status"])


def ledger_totals(con, district: str | None = None, ledger: str | None = None, local_authority: str | None = None,
                  head: str | None = None):
    """Per ledger: the totals of the whole table (what the parts must add up to); of one head if named."""
    return select(con, "reconciliation", col("ledger"), total("expected_amount", "expected"),
                  total("ledger_amount", "credited"), total("difference"),
                  where=[*_district(district, local_authority), *_ledger(ledger, head)],
                  order=["ledger"], key=["ledger"])


def _ties_rows(con, district: str | None, local_authority: str | None) -> list[dict]:
    """The rows of marts/reconciliation_ties for a place (`all` where none is named), each ledger and
    block: a local fund's ledger whole, the DM's deposit head by head in HEAD_LABELS' order."""
    rows = select_records(con, "reconciliation_ties", col("ledger"), col("head"), col("expected_sum"),
                          col("credited_sum"), col("expected_total"), col("credited_total"), col("difference_total"),
                          col("ties"),
                          where=[Cond("district", "=", district or "all"),
                                 Cond("local_authority_id", "=", local_authority or "all")],
                          order=["ledger", "head"])
    order = list(HEAD_LABELS)
    return sorted(rows, key=lambda r: (r["ledger"], order.index(r["head"]) if r["head"] in order else len(order),
                                       r["head"] or ""))


def ties(con, district: str | None = None, local_authority: str | None = None) -> list[dict]:
    """Per ledger (the DM's deposit per head): each status's rows and amounts, and the sums on each
    side, the table's totals and whether they tie as marts/reconciliation_ties computes them
    (expected = its statuses' sum, credited likewise, difference = credited - expected)."""
    out = []
    for t in _ties_rows(con, district, local_authority):
        ledger, head = t["ledger"], t["head"]
        parts = by_status(con, district, ledger, local_authority, head)
        by = {s: (0, 0, 0) for s in STATUS_ORDER}
        for r in parts.to_dict("records"):
            by[r["status"]] = (int(r["rows"]), int(r["expected"]), int(r["credited"]))
        out.append(dict(ledger=ledger, head=head, by_status=by, expected_sum=int(t["expected_sum"]),
                        credited_sum=int(t["credited_sum"]), expected_total=int(t["expected_total"]),
                        credited_total=int(t["credited_total"]), difference_total=int(t["difference_total"]),
                        ties=bool(t["ties"]), parts=parts,
                        totals=ledger_totals(con, district, ledger, local_authority, head)))
    return out


# overdue_rule: the finding an expected credit or receipt not made in full in time is (R16, R17), beside its row;
# early_rule: the finding a surplus credited before the DM's six months ended is (R21)
BREAK_COLUMNS = ("ledger", "local_authority_id", "reference", "head", "status", "overdue_rule", "early_rule",
                 "expected_amount",
                 "ledger_amount", "difference", "due_on", "entry_on", "days_after_due", "days_outstanding", "entry_ids",
                 "expected_from")


def breaks(con, district: str | None = None, local_authority: str | None = None, first: int | None = None):
    """Every row an auditor must take up (is_break: not matched, not pending), worst first (with
    `first`, the first so many of them and how many there are)."""
    return select_first(con, "reconciliation", *(col(c) for c in BREAK_COLUMNS), first=first,
                        where=[Cond("is_break", "=", True), *_district(district, local_authority)],
                        order=["status_rank", "ledger", "local_authority_id", "reference", "head"],
                        key=["ledger", "local_authority_id", "reference", "head"])


def pending(con, district: str | None = None, local_authority: str | None = None, first: int | None = None):
    """Expected credits not entered yet whose lag has not run out (not breaks yet; with `first`, as breaks)."""
    return select_first(con, "reconciliation", *(col(c) for c in BREAK_COLUMNS
                                                 if c not in ("ledger_amount", "entry_on", "days_after_due", "entry_ids",
                                                              "expected_from", "overdue_rule", "early_rule")),
                        first=first, where=[Cond("status", "=", "pending"), *_district(district, local_authority)],
                        order=["due_on", "ledger", "local_authority_id", "reference", "head"],
                        key=["ledger", "local_authority_id", "reference", "head"])


def ageing(con, district: str | None = None, local_authority: str | None = None):
    """What is missing, by how long it has been outstanding past its due day."""
    return totals(con, select(con, "reconciliation", col("ageing_band"), col("ageing"), count("items"),
                              total("expected_amount", "amount"),
                              total_if("expected_amount", "ledger", "local_fund", "local_fund"),
                              total_if("expected_amount", "ledger", "dm_deposit", "dm_deposit"),
                              where=[Cond("status", "=", "missing"), *_district(district, local_authority)],
                              order=["ageing_band"], key=["ageing_band", "ageing"]))


def in_month(con, month: str, district: str | None = None, local_authority: str | None = None,
             first: int | None = None):
    """Rows due in the month or entered in a ledger in it (with `first`, as breaks)."""
    start, last = month_bounds(month)
    return select_first(con, "reconciliation", *(col(c) for c in ("ledger", "local_authority_id", "reference", "head",
                                                                  "status", "expected_amount", "ledger_amount",
                                                                  "difference", "due_on", "entry_on")),
                        first=first, where=[either(between("due_on", start, last), between("entry_on", start, last)),
                                            *_district(district, local_authority)],
                        order=["ledger", "local_authority_id", "reference", "head"],
                        key=["ledger", "local_authority_id", "reference", "head"])


def corrections_of(con, month: str, district: str | None = None):
    """Every correction of a register or ledger row whose own date falls in the month."""
    return select(con, "corrections", col("register"), col("key"), col("version"), col("field"), col("was"),
                  col("now"), col("correction_note"), col("loaded_on"), col("file"), col("row"),
                  where=[Cond("event_month", "=", month), *_district(district)],
                  order=["register", "key", "version", "field_position"], key=["register", "key", "version", "field"])
