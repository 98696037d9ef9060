"""audit_workbook.xlsx: the auditors' tables in one workbook (openpyxl).

Sheets: summary (one row per local authority, ledger and head, with totals
that tie and the breaks), then the tables: reconciliation, findings, fund_movements, case_accounts,
security_status, owner_accounts, monthly_accounts. Every sheet has
a frozen header row, a filter, rupee number formats and column widths that
fit. A sheet that would pass Excel's row limit is replaced by a summary of it.
Money is written as exact decimal text in the cell (paise / 100), never through a float.
Text that a spreadsheet would run as a formula stays text.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from pipeline.core.money import paise_text
from pipeline.outputs.exports import BY_TABLE, export_select
from pipeline.read import reconciliation
from pipeline.read.select import select_rows

EXCEL_MAX_ROWS = 1_048_576          # including the header row
# `pound run` and `pound build` write the whole-bundle workbook only up to this many rows in
# its largest sheet; above it, an auditor makes scoped ones (`pound workbook`, audit_file.py).
WHOLE_WORKBOOK_MAX_ROWS = 100_000
RUPEES = '#,##0.00'
DATE = 'yyyy-mm-dd'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")

SUMMARY_MONEY = {"expected", "credited", "difference", "matched", "late", "early", "mismatch_expected",
                 "mismatch_credited", "missing", "pending", "unexpected"}

# A sheet too long for Excel is summarised by these groupings instead.
ROLLUPS = {
    "case_accounts": ("pound_id, local_authority_id, strftime(impounded_on, '%Y-%m') AS month, status",
                      ["head_count", "fine_due", "feeding_due", "security_due", "head_sold", "sale_proceeds",
                       "sale_expenses", "balance_to_owner", "surplus_unclaimed", "unrecovered"]),
    "fund_movements": ("ref_kind, section, account, account_id, strftime(due_on, '%Y-%m') AS month", ["amount"]),
    "findings": ("rule_id, section, severity, pound_id, strftime(event_on, '%Y-%m') AS month", []),
    "reconciliation": ("ledger, local_authority_id, head, status",
                       ["expected_amount", "ledger_amount", "difference"]),
    "security_status": ("computed, recorded, strftime(deposited_on, '%Y-%m') AS month", ["amount"]),
    "owner_accounts": ("pound_id, path, strftime(sold_on, '%Y-%m') AS month",
                       ["e_proceeds", "f_balance_to_owner", "f_surplus_to_dm", "f_unrecovered"]),
    "corrections": ("register, field, event_month", []),
    "review_log": ("decision, finding_raised", []),
    "adjustments": ("month, district, measure", []),
    "monthly_accounts": ("month, district", ["heads_impounded", "heads_released", "heads_sold", "fines_received",
                                              "feeding_received", "local_fund_due", "local_fund_ledger"]),
}
# The two long tables keep to the contract's columns (and where each row comes from) in
# the workbook; the CSV files carry every tracing column. The others are written whole.
NARROW = {"case_accounts": ("source",), "fund_movements": ("hop", "what", "source")}
# Sheets written only when the table has rows: the corrections of the registers and the DM's decisions.
WHEN_ANY = ("corrections", "review_log", "adjustments")
SHEETS = ("reconciliation", "findings", "fund_movements", "case_accounts", "security_status", "owner_accounts",
          "monthly_accounts")


def safe_text(value: str) -> bool:
    """Whether a text cell can be written as it is (it does not look like a formula)."""
    return not value.startswith(FORMULA_STARTS)


def _writers(ws, names: list[str], money: set[str], sample: list[tuple]):
    """One function per column turning a value into what ws.append takes.

    Plain values are cheapest; a styled cell is made only where a format is needed
    (rupees, dates) or where text must be kept from being read as a formula. Cells of
    one format share one style array.
    """
    rupee_style = WriteOnlyCell(ws)
    rupee_style.number_format = RUPEES
    date_style = WriteOnlyCell(ws)
    date_style.number_format = DATE

    def as_money(v):
        if v is None:
            return None
        c = WriteOnlyCell(ws, value=0)
        # openpyxl formats numbers with "%.16g", through a float (0.07 would be written
        # 0.07000000000000001). The cell's text is set here instead, exact to the paisa.
        c._value = paise_text(v)
        c._style = rupee_style._style
        return c

    def as_date(v):
        if v is None:
            return None
        c = WriteOnlyCell(ws, value=v)
        c._style = date_style._style
        return c

    def as_text(v):
        if v is None or safe_text(v):
            return v
        c = WriteOnlyCell(ws)
        c.value = v
        c.data_type = "s"           # openpyxl would store it as a formula; keep it text, quote-prefixed
        c.quotePrefix = True
        return c

    def as_other(v):
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, str):
            return as_text(v)
        if isinstance(v, dt.date):
            return as_date(v)
        return v

    out = []
    for i, n in enumerate(names):
        kinds = {type(r[i]) for r in sample if r[i] is not None}
        if n in money:
            out.append(as_money)
        elif kinds == {str}:
            out.append(as_text)
        elif kinds == {dt.date}:
            out.append(as_date)
        else:
            out.append(as_other)
    return out


def _sheet(wb: Workbook, con: duckdb.DuckDBPyConnection, title: str, sql: str, money: set[str],
           note: str | None = None) -> int:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return _write_sheet(wb, title, names, cur.fetchmany(2000), lambda: cur.fetchmany(20000), money, note)


def _write_sheet(wb: Workbook, title: str, names: list[str], first: list[tuple], more, money: set[str],
                 note: str | None) -> int:
    ws = wb.create_sheet(title)
    widths = [len(n) + 4 for n in names]
    for row in first:
        for i, v in enumerate(row):
            shown = paise_text(v, grouping=True) if names[i] in money and v is not None else str(v if v is not None else "")
            widths[i] = max(widths[i], min(len(shown) + 2, 60))
    for i, w in enumerate(widths, 1):
        ws.column_dimensions[get_column_letter(i)].width = w
    ws.freeze_panes = "A2"
    header = []
    for n in names:
        c = WriteOnlyCell(ws, value=n)
        c.font, c.fill = HEADER_FONT, HEADER_FILL
        c.alignment = Alignment(vertical="center")
        header.append(c)
    ws.append(header)
    writers = _writers(ws, names, money, first)
    rows = 0
    batch = first
    while batch:
        for row in batch:
            ws.append([w(v) for w, v in zip(writers, row, strict=True)])
        rows += len(batch)
        batch = more()
    ws.auto_filter.ref = f"A1:{get_column_letter(len(names))}{rows + 1}"
    if note:
        ws.append([])
        ws.append([note])
    return rows


def largest_sheet(con: duckdb.DuckDBPyConnection) -> tuple[str, int]:
    """The table of the whole-bundle workbook with the most rows, and how many."""
    from pipeline.read.select import count, select_records

    sizes = [(t, select_records(con, t, count("rows"))[0]["rows"]) for t in SHEETS + WHEN_ANY]
    return max(sizes, key=lambda s: s[1])


def write_workbook(con: duckdb.DuckDBPyConnection, path: Path) -> Path:
    wb = Workbook(write_only=True)
    names, cur, _ = reconciliation.summary(con, reader=select_rows)
    _write_sheet(wb, "summary", names, cur.fetchall(), lambda: [], SUMMARY_MONEY, None)
    for table in SHEETS + WHEN_ANY:
        spec = BY_TABLE[table]
        count = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        if count == 0 and table in WHEN_ANY:
            continue
        if count + 1 <= EXCEL_MAX_ROWS:
            sql = export_select(con, spec, money_as_text=False, only=NARROW.get(table))
            _sheet(wb, con, spec.name, sql, set(spec.money))
        else:
            keys, sums = ROLLUPS[table]
            agg = ", ".join([f"sum({c}) AS {c}" for c in sums] + ["count(*) AS rows"])
            sql = f"SELECT {keys}, {agg} FROM {table} GROUP BY ALL ORDER BY ALL"
            _sheet(wb, con, f"{table}_summary", sql, set(sums) & set(spec.money),
                   note=f"{table} has {count:,} rows, more than a sheet holds; this sheet sums them. "
                        f"The full table is {table}.csv.")
    wb.save(path)
    return path
