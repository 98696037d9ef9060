"""audit_workbook.xlsx: the auditors' tables in one workbook (written by xlsx.py).

Sheets: summary (one row per local authority, ledger and head, with totals
that tie, the part of the difference on credits already due, the rupees of each status and
the number of breaks), then the tables: reconciliation, findings, fund_movements, case_accounts,
security_status, owner_accounts, monthly_accounts. Every sheet has
a frozen header row, a filter, rupee number formats and column widths that
fit. `pound run` writes it only while every sheet fits (WHOLE_WORKBOOK_MAX_ROWS); above
that an auditor makes one local authority's year (audit_file.py).
Money is written as exact decimal text in the cell (paise / 100), never through a float.
Text that a spreadsheet would run as a formula stays text.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline.core.errors import PoundError
from pipeline.core.money import paise_text
from pipeline.outputs import xlsx
from pipeline.outputs.exports import BY_TABLE, export_select
from pipeline.read import reconciliation
from pipeline.read.select import count, select_records, select_rows

EXCEL_MAX_ROWS = 1_048_576          # including the header row
# `pound run` and `pound build` write the whole-bundle workbook only up to this many rows in
# its largest sheet; above it, an auditor makes scoped ones (`pound workbook`, audit_file.py).
WHOLE_WORKBOOK_MAX_ROWS = 100_000

SUMMARY_MONEY = {"expected", "credited", "difference", "difference_due", "matched_amount", "late_amount",
                 "early_amount", "mismatch_expected_amount", "mismatch_credited_amount", "missing_amount",
                 "pending_amount", "unexpected_amount"}

# The two long tables keep to the contract's columns (and where each row comes from) in
# the workbook; the CSV files carry every tracing column. The others are written whole.
NARROW = {"case_accounts": ("source",), "fund_movements": ("hop", "what", "source")}
# Sheets written only when the table has rows: the corrections of the registers and the DM's decisions.
WHEN_ANY = ("corrections", "review_log", "adjustments")
SHEETS = ("reconciliation", "findings", "fund_movements", "case_accounts", "security_status", "owner_accounts",
          "monthly_accounts")


def _plain(v):
    return ("yes" if v else "no") if isinstance(v, bool) else v


def _sheet(wb: xlsx.Workbook, con: duckdb.DuckDBPyConnection, title: str, sql: str, money: set[str]) -> int:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return _write_sheet(wb, title, names, cur.fetchmany(2000), lambda: cur.fetchmany(20000), money)


def _write_sheet(wb: xlsx.Workbook, title: str, names: list[str], first: list[tuple], more, money: set[str]) -> int:
    """A table as a sheet: a styled, frozen and filtered header, widths that fit the first rows,
    money in rupees exact to the paisa, dates as dates, yes/no for flags."""
    widths = [len(n) + 4 for n in names]
    for row in first:
        for i, v in enumerate(row):
            shown = paise_text(v, grouping=True) if names[i] in money and v is not None else str(v if v is not None else "")
            widths[i] = max(widths[i], min(len(shown) + 2, 60))
    ws = wb.sheet(title, widths)
    ws.append([xlsx.Cell(n, xlsx.HEADER) for n in names])
    as_money = [n in money for n in names]
    rows = 0
    batch = first
    while batch:
        for row in batch:
            ws.append([xlsx.money(v) if m else _plain(v) for m, v in zip(as_money, row, strict=True)])
        rows += len(batch)
        batch = more()
    ws.filter(len(names), rows + 1)
    return rows


def _rows(con: duckdb.DuckDBPyConnection, table: str) -> int:
    return select_records(con, table, count("rows"))[0]["rows"]


def largest_sheet(con: duckdb.DuckDBPyConnection) -> tuple[str, int]:
    """The table of the whole-bundle workbook with the most rows, and how many."""
    sizes = [(t, _rows(con, t)) for t in SHEETS + WHEN_ANY]
    return max(sizes, key=lambda s: s[1])


def write_workbook(con: duckdb.DuckDBPyConnection, path: Path) -> Path:
    with xlsx.Workbook(path) as wb:
        names, cur, _ = reconciliation.summary(con, reader=select_rows)
        _write_sheet(wb, "summary", names, cur.fetchall(), lambda: [], SUMMARY_MONEY)
        for table in SHEETS + WHEN_ANY:
            spec = BY_TABLE[table]
            rows = _rows(con, table)
            if rows == 0 and table in WHEN_ANY:
                continue
            if rows + 1 > EXCEL_MAX_ROWS:
                raise PoundError(f"{table} has {rows:,} rows, more than a sheet holds: the whole-bundle workbook "
                                 "cannot be written; make one local authority's year with pound workbook")
            sql = export_select(con, spec, money_as_text=False, only=NARROW.get(table))
            _sheet(wb, con, spec.name, sql, set(spec.money))
        return wb.save()
