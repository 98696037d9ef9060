"""The month at a glance, to sign: the monthly review's first printed page.

One page the District Magistrate signs: the month's key figures (heads in and out, money
received by the section of the Act that sends it on, every finding waiting for his decision on the
accounts' date, open or reopened, of the month and of the months before it, by severity, with the
days the oldest has waited, and apart from them those of the month itself; the credits and receipts
overdue and their sum (R14); the deadlines of the days after the month), the decisions taken on the
findings up to it, whether the month is closed, and a block for his signature, name and date.

`figures` is the one list of those figures: the page shows it, and `pound close` seals it in
close.json and says it on the command line (pipeline/close/seal.py), so the figures sealed are
the figures signed. Each is read from a finished model (pipeline.read.select) and names its
selection and row on the page (data-selection, data-col, data-key), as a table's cells do. The
figures of what waits (findings, the days the oldest has waited, credits overdue) are the row of
marts/page_one on the accounts' as-of date; marts/adjustments reads the same model on a close's.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.read.database import as_of
from pipeline.read.select import Cond, col, select, total
from pipeline.reports import html as h
from pipeline.reports import review, stamp

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Figure:
    measure: str             # its stable id, sealed in close.json and read by marts/adjustments (R14)
    label: str               # the words page 1 prints: a label only, free to be reworded
    value: int               # exact: a count, or paise
    money: bool
    selection: dict | None   # the selection it was read from (select's attrs), its column and row
    col: str
    key: dict

    @property
    def text(self) -> str:
        return h.rupees(self.value) if self.money else f"{self.value:,}"

    def shown(self) -> dict:
        """What the key-figures template writes for it."""
        return {"label": self.label, "text": self.text, "col": self.col, "money": self.money,
                "selection": self.selection, "key": self.key}


def _one(measure: str, label: str, df, column: str, money: bool = False, key: dict | None = None,
         row: int = 0) -> Figure:
    value = df[column].iloc[row] if len(df) else 0
    return Figure(measure, label, 0 if h.is_blank(value) else int(value), money, df.attrs.get("selection"), column,
                  key or {})


def money_by_section(con, month: str, district: str | None = None):
    """Money received in the month (first movements), by the section of the Act that sends it on."""
    return select(con, "fund_movements", col("section"), total("amount"),
                  where=[Cond("month", "=", month), Cond("hop", "=", 1),
                         *review.district_cond(district)],
                  order=["section"], key=["section"])


def page_one(con, month: str, district: str | None = None):
    """Page 1's figures of what waits, as marts/page_one counts them on the accounts' as-of date (one
    row): the findings waiting for a decision (open, or reopened by a correction) of the month and
    every month before it and of the month alone, by severity, the days the oldest has waited, and the
    local fund credits and the DM's receipts overdue (the findings LF-CREDIT-OVERDUE and
    DM-RECEIPT-OVERDUE of the month and before) with the sum not credited or received. The same row
    of a close's as-of date is what marts/adjustments sets against the figures the close sealed."""
    return select(con, "page_one", *(col(f"waiting_{s}") for s in SEVERITIES), col("oldest_days"),
                  *(col(f"of_month_{s}") for s in SEVERITIES), col("overdue_credits"), col("overdue_money"),
                  where=[Cond("as_of", "=", as_of(con)), Cond("month", "<=", month), Cond("until_month", ">=", month),
                         Cond("district", "=", district or "all")])


def figures(con, month: str, district: str | None = None) -> list[Figure]:
    """The key figures of the month at a glance, in the order the page shows them."""
    heads = review.month_totals(con, month, district)
    out = [_one(c, label, heads, c) for c, label in (
        ("heads_impounded", "heads impounded"), ("heads_released", "heads released"), ("heads_sold", "heads sold"),
        ("heads_end", "heads in the pounds at month end"))]
    out.append(_one("received", "money received (Rs)", review.received_total(con, month, district), "amount",
                    money=True))
    by_section = money_by_section(con, month, district)
    out += [_one(f"received_s{s}", f"of which under s.{s} (Rs)", by_section, "amount", money=True,
                 key={"section": s}, row=i)
            for i, s in enumerate(by_section["section"])]
    # the figures of what waits: measure page1_<column of marts/page_one>, as marts/adjustments names them
    waiting = page_one(con, month, district)
    out += [_one(f"page1_waiting_{s}", f"findings waiting up to the month, {s}", waiting, f"waiting_{s}")
            for s in SEVERITIES]
    out.append(_one("page1_oldest_days", "days the oldest has waited", waiting, "oldest_days"))
    out += [_one(f"page1_of_month_{s}", f"of them of the month itself, {s}", waiting, f"of_month_{s}")
            for s in SEVERITIES]
    out += [_one("page1_overdue_credits", "credits and receipts overdue", waiting, "overdue_credits"),
            _one("page1_overdue_money", "money overdue, not credited (Rs)", waiting, "overdue_money", money=True)]
    days = review.horizon(con)
    out.append(_one("deadlines_after", f"deadlines in the {days} days after the month",
                    review.deadline_count(con, month, district), "deadlines"))
    return out


def sealed(con, month: str, district: str | None = None) -> list[dict]:
    """The figures as `pound close` records them: measure id, label, exact value (paise for money) and the
    text shown."""
    return [{"measure": f.measure, "label": f.label, "value": f.value, "money": f.money, "text": f.text}
            for f in figures(con, month, district)]


def page(con, month: str, label: str, district: str | None, closed: str, sealed_id: str | None = None) -> h.Html:
    """The first printed page: the figures, the decisions taken, whether the month is closed, and
    the signature block (`closed`: what the parameters block says of the close; `sealed_id`: in
    the copy a close seals, the close's figures id)."""
    where = f", {district} district" if district else ", all districts"
    shown = figures(con, month, district)
    money = [f.shown() for f in shown if f.money]
    counts = [f.shown() for f in shown if not f.money]
    decided = review.decided_findings(con, month, district)
    return h.Html('<div class="pound-glance">'
                  + h.heading(f"{label}{where}: the month at a glance, to sign", 2)
                  + '<div class="pound-glance-cols">'
                  + h.piece_template("glance_figures.html.j2", figures=counts, table_id="glance-heads")
                  + h.piece_template("glance_figures.html.j2", figures=money, table_id="glance-money")
                  + "</div>"
                  + h.heading("Decisions taken on the findings up to the month", 3)
                  + h.table(decided, table_id="glance-decided", total="all decided",
                            labels={"review_status": "decision", "high": "of which high severity"},
                            empty="No decision has been recorded yet.")
                  + h.parameters_table([("Month closed", closed),
                                        *stamp.rows(con, sealed(con, month, district), closed, sealed_id)])
                  + h.signature(f"District Magistrate{', ' + district if district else ''}: signature", "Name",
                                "Date and seal")
                  + "</div>")
