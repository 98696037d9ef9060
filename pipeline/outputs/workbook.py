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


HEADER_WIDTH = 10       # a column's name wraps in its header cell past this many characters
TEXT_WIDTH = 32         # a longer text (a finding's detail, an account's disposal) wraps in its column


def _plain(v):
    return ("yes" if v else "no") if isinstance(v, bool) else v


def _wrapped(v):
    return xlsx.Cell(v, xlsx.WRAPPED) if isinstance(v, str) and xlsx.safe_text(v) else v


def _sheet(wb: xlsx.Workbook, con: duckdb.DuckDBPyConnection, title: str, sql: str, money: set[str]) -> int:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return _write_sheet(wb, title, names, cur.fetchmany(2000), lambda: cur.fetchmany(20000), money)


def _write_sheet(wb: xlsx.Workbook, title: str, names: list[str], first: list[tuple], more, money: set[str]) -> int:
    """A table as a sheet: a styled, frozen and filtered header, widths that fit the first rows,
    money in rupees exact to the paisa, dates as dates, yes/no for flags."""
    widths = [float(min(len(n) + 1, HEADER_WIDTH)) for n in names]
    longest = [0] * len(names)
    for row in first:
        for i, v in enumerate(row):
            shown = paise_text(v, grouping=True) if names[i] in money and v is not None else str(v if v is not None else "")
            longest[i] = max(longest[i], len(shown))
            widths[i] = max(widths[i], min(len(shown) + 2, TEXT_WIDTH))
    ws = wb.sheet(title, widths)
    # printed, the sheet is one A4 page wide at a readable size: a long name wraps in its header cell, a
    # long text (a finding's detail) in its column, rather than widening the page until the print is tiny
    lines = max(-(-len(n) // max(int(w) - 1, 1)) for n, w in zip(names, widths, strict=True))
    ws.append([xlsx.Cell(n, xlsx.HEADER) for n in names], height=15 * lines if lines > 1 else None)
    as_money = [n in money for n in names]
    wrapped = [n + 2 > TEXT_WIDTH for n in longest]
    rows = 0
    batch = first
    while batch:
        for row in batch:
            # a wrapped text's lines (the row is made as tall: a spreadsheet does not grow it on opening)
            tall = max((-(-len(v) // (int(widths[i]) - 2)) for i, v in enumerate(row) if wrapped[i] and isinstance(v, str)),
                       default=1)
            ws.append([xlsx.money(v) if m else _wrapped(_plain(v)) if w else _plain(v)
                       for m, w, v in zip(as_money, wrapped, row, strict=True)], height=15 * tall if tall > 1 else None)
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
