"""The balances of a scope: for each local fund and the DM's deposit, what was due but not
credited at the start, due and credited in the period, and at the end (s.18(2), s.18(5)).

Every figure is a sum of the model `balance_items` (one row per due or ledger entry, with
its day) over a stated set of days: before the period (opening), in it, up to its end
(closing). Opening and closing are read separately from the period's due and credited,
so the identity opening + due - credited = closing is a check here, not a definition;
the build checks the same identity month by month on `fund_balances`.

The closing figure is a net: a due never credited and a credit nothing was due for cancel out
in it. Beside it stand its two parts, each a sum of its own rows: what is missing at the end
(the dues by then, less the credits that paid them) and what was credited unexpected (credits
that pay nothing due by then); closing = missing - unexpected.
"""

from __future__ import annotations

from pipeline.read.scope import Scope
from pipeline.read.select import Cond, col, either, select_records, total

KEY = ("ledger", "local_authority_id", "local_authority_name")
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
HELD = ("held_start", "held_end", "held_due_start", "held_due_end")
LEDGER_ORDER = {"local_fund": 0, "dm_deposit": 1}


def _sums(con, scope: Scope, where: list, **columns: str) -> dict:
    """{key: {name: sum}} of balance_items over the scope's place and the days in `where`."""
    rows = select_records(con, "balance_items", *(col(k) for k in KEY),
                          *(total(c, name) for name, c in columns.items()),
                          where=[*scope.where("balance_items", period=False), *where], key=KEY)
    return {tuple(r[k] for k in KEY): {n: int(r[n]) for n in columns} for r in rows}


def period_balances(con, scope: Scope) -> list[dict]:
    """One dict per ledger and local authority in the scope (COLUMNS), ordered local funds first."""
    start, end = scope.start, scope.end
    before = [Cond("on_date", "<", start)] if start else [Cond("on_date", "is_null")]
    upto = [Cond("on_date", "<=", end)] if end else [Cond("on_date", "not_null")]
    during = ([Cond("on_date", ">=", start)] if start else []) + upto
    parts = [
        _sums(con, scope, before, opening_due_not_credited="balance_change", held_start="held_change",
              held_due_start="held_due_change"),
        _sums(con, scope, during, due="due_amount", credited="credited_amount"),
        _sums(con, scope, during + ([Cond("for_due_on", ">=", start)] if start else [Cond("for_due_on", "not_null")])
              + ([Cond("for_due_on", "<=", end)] if end else []), credited_for_period_dues="credited_amount"),
        # a period from the first day has no earlier dues (its figure is 0, as for a key with no rows)
        _sums(con, scope, [*during, Cond("for_due_on", "<", start)], credited_for_earlier_dues="credited_amount")
        if start else {},
        _sums(con, scope, during + [either(Cond("for_due_on", "is_null"),
                                           *([Cond("for_due_on", ">", end)] if end else []))],
              credited_other="credited_amount"),
        _sums(con, scope, upto, closing_due_not_credited="balance_change", held_end="held_change",
              held_due_end="held_due_change"),
        # the closing figure's two parts: dues and the credits matched to dues by the end; credits for none
        _sums(con, scope, upto + [either(Cond("side", "=", "due"), Cond("for_due_on", "<=", end) if end
                                         else Cond("for_due_on", "not_null"))], missing_at_end="balance_change"),
        _sums(con, scope, upto + [Cond("side", "=", "entry"), either(Cond("for_due_on", "is_null"),
                                                                     *([Cond("for_due_on", ">", end)] if end else []))],
              unexpected_at_end="credited_amount"),
    ]
    keys = sorted({k for p in parts for k in p}, key=lambda k: (LEDGER_ORDER.get(k[0], 9), str(k[1])))
    out = []
    for k in keys:
        row = dict(zip(KEY, k, strict=True))
        for name in COLUMNS[3:-1]:
            row[name] = next((p[k][name] for p in parts if k in p and name in p[k]), 0)
        if row["ledger"] != "dm_deposit":       # what the DM holds has no meaning for a local fund: blank
            row.update(dict.fromkeys(HELD))
        row["ties"] = (row["opening_due_not_credited"] + row["due"] - row["credited"] == row["closing_due_not_credited"]
                       and row["credited_for_period_dues"] + row["credited_for_earlier_dues"] + row["credited_other"]
                       == row["credited"]
                       and row["missing_at_end"] - row["unexpected_at_end"] == row["closing_due_not_credited"])
        out.append(row)
    return out
