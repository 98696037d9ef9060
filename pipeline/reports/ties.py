"""The reconciliation's totals that tie, written out per ledger."""

from __future__ import annotations

from pipeline.read.reconciliation import EXPECTED_SIDE, HEAD_LABELS, LEDGER_NAMES, LEDGER_SIDE, ties
from pipeline.reports.html import Html, heading, note, piece, rupees, table


def _equation(total: int, side, by: dict, col: int) -> str:
    terms = " + ".join(f"{s.replace('_', ' ')} {rupees(by[s][col])}" for s in side)
    return f"{rupees(total)} = {terms}"


def ties_html(con, district: str | None = None, local_authority: str | None = None) -> Html:
    """Each ledger: the amount of each status on each side, the table's totals, and whether they tie."""
    out = []
    for tie in ties(con, district, local_authority):
        ledger, head = tie["ledger"], tie["head"]
        name = f"{ledger}-{head}" if head else ledger
        out.append(heading(f"Ledger: {LEDGER_NAMES.get(ledger, ledger)}"
                           + (f", head: {HEAD_LABELS.get(head, head)}" if head else ""), 3))
        out.append(table(tie["parts"], money=["expected", "credited"], hide=["ledger"], total="sum of the statuses",
                         table_id=f"ties-{name}",
                         labels={"expected": "expected", "credited": "credited in the ledger"}))
        out.append(table(tie["totals"], money=["expected", "credited", "difference"], hide=["ledger"],
                         table_id=f"ties-total-{name}",
                         labels={"expected": "expected, total of the table",
                                 "credited": "credited, total of the table",
                                 "difference": "credited - expected"}))
        by = tie["by_status"]
        ok = "yes" if tie["ties"] else "NO"
        out.append(piece("equations", expected=_equation(tie["expected_sum"], EXPECTED_SIDE, by, 1),
                         credited=_equation(tie["credited_sum"], LEDGER_SIDE, by, 2), name=name, ok=ok))
    if not out:
        return note("The reconciliation has no rows.", "empty")
    return Html("".join(str(x) for x in out))
