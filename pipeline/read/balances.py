"""The balances of a scope: for each local fund and the DM's deposit, what was due but not
credited at the start, due and credited in the period, and at the end (s.18(2), s.18(5)).

Every figure is the model `period_balances` (sql/marts/period_balances.sql), a view whose period is
the reader's: it is named by setting the variables balances_from and balances_to on the connection
before the view is read. Here the rows are only cut to the scope's district or local authority,
ordered (local funds first) and given their labels; the identity opening + due - credited =
closing, and the closing figure's two parts (closing = missing - unexpected), are the view's
`ties`.
"""

from __future__ import annotations

from pipeline.read.scope import Scope
from pipeline.read.select import col, select_records

COLUMNS = ("ledger", "local_authority_id", "local_authority_name", "opening_due_not_credited", "due", "credited",
           "credited_for_period_dues", "credited_for_earlier_dues", "credited_other", "closing_due_not_credited",
           "missing_at_end", "unexpected_at_end", "held_start", "held_end", "held_due_start", "held_due_end", "ties")
MONEY = frozenset(COLUMNS[3:-1])
# What each column means (the page's labels and the workbook's cover).
MEANING = {
    "opening_due_not_credited": "due before the period and not credited by its first day (for the DM's "
                                "deposit: surplus he was to receive and had not)",
    "due": "fell due in the period, by the day due",
    "credited": "entered in the ledger in the period, by the day entered (for the DM's deposit: his receipts)",
    "credited_for_period_dues": "of which paying dues of the period",
    "credited_for_earlier_dues": "of which paying dues of before the period",
    "credited_other": "of which paying nothing due by the period's last day (an entry nothing was due for, or "
                      "a credit for a due that falls after the period)",
    "closing_due_not_credited": "opening + due - credited: due by the period's last day and not credited "
                                "(below zero: more was credited in all than was due, such as lease rent; a due "
                                "can still be missing beside it)",
    "missing_at_end": "of the closing figure: due by the period's last day and not paid by the credits made "
                      "for it (a due credited short counts its shortfall)",
    "unexpected_at_end": "of the closing figure: credited by the period's last day for nothing due by then "
                         "(closing = missing - unexpected)",
    "held_start": "the DM's deposit only: what his ledger shows he held at the start (receipts less credits "
                  "to local funds less refunds)",
    "held_end": "the DM's deposit only: the same at the end",
    "held_due_start": "the DM's deposit only: what he should have held at the start (s.18(5))",
    "held_due_end": "the DM's deposit only: the same at the end",
    "ties": "opening + due - credited = closing, the three parts of credited add up to it, and closing = "
            "missing - unexpected",
}
LEDGER_ORDER = {"local_fund": 0, "dm_deposit": 1}


def _day(d) -> str:
    return "NULL" if d is None else f"DATE '{d.isoformat()}'"


def period_balances(con, scope: Scope) -> list[dict]:
    """One dict per ledger and local authority in the scope (COLUMNS), ordered local funds first."""
    con.execute(f"SET VARIABLE balances_from = {_day(scope.start)}")
    con.execute(f"SET VARIABLE balances_to = {_day(scope.end)}")
    rows = select_records(con, "period_balances", *(col(c) for c in COLUMNS),
                          where=scope.where("period_balances", period=False))
    return sorted(rows, key=lambda r: (LEDGER_ORDER.get(r["ledger"], 9), str(r["local_authority_id"])))
