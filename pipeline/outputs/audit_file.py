"""The workbook an auditor files: one scope (district, local authority, period) of the accounts.

Sheets: cover (a first line when files were loaded after the figures; the scope, the accounts'
as-of date, the readings in force, every input file with its sha256, when the workbook was made
and the period basis of each sheet), balances
(pipeline/read/balances.py), then the scope's rows of reconciliation, ledger_entries (both
ledgers as loaded, with file and row), findings, case_accounts, fund_movements,
monthly_accounts and corrections (when there are any). Every table is read through a
selection with the scope; only its rows are written, streamed (xlsx.py).
Money is a number with two decimals, dates are dates, headers are frozen and filtered,
and text that a spreadsheet would run as a formula stays text (workbook.py).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

from pipeline.build import record
from pipeline.outputs import xlsx
from pipeline.outputs.exports import BY_TABLE
from pipeline.outputs.workbook import _plain, _write_sheet
from pipeline.read import balances, database
from pipeline.read.scope import BASIS, NO_AUTHORITY, Scope
from pipeline.read.select import col, select_records, select_rows

LEDGER_COLUMNS = ("ledger", "entry_id", "entry_on", "local_authority_id", "local_authority_name", "kind", "reference",
                  "amount", "correction_note", "version", "file", "row")
# sheet -> (model, columns, money columns, order)
TABLES: tuple[tuple[str, str, tuple[str, ...], frozenset[str], tuple[str, ...]], ...] = (
    ("reconciliation", "reconciliation", BY_TABLE["reconciliation"].columns
     + ("days_after_due", "days_outstanding", "entry_ids", "expected_from", "is_break", "overdue_rule", "overdue_on",
        "early_rule"),
     BY_TABLE["reconciliation"].money, ("ledger", "local_authority_id", "reference", "head")),
    ("ledger_entries", "ledger_entries", LEDGER_COLUMNS, frozenset({"amount"}), ("ledger", "entry_on", "entry_id")),
    ("findings", "findings", BY_TABLE["findings"].columns, frozenset(), ("severity_rank", "rule_id", "event_on",
                                                                         "subject_id")),
    ("case_accounts", "case_accounts", BY_TABLE["case_accounts"].columns + ("source",),
     BY_TABLE["case_accounts"].money, ("case_id",)),
    ("fund_movements", "fund_movements", BY_TABLE["fund_movements"].columns + ("local_authority_id", "hop", "what", "source"),
     BY_TABLE["fund_movements"].money, ("ref_kind", "ref_id", "hop", "due_on", "section", "account", "account_id")),
    ("monthly_accounts", "monthly_accounts", tuple(c for c in BY_TABLE["monthly_accounts"].columns) + (
        "heads_start", "heads_impounded", "heads_released", "heads_sold", "heads_end", "cases_impounded",
        "fines_received", "feeding_received", "protest_deposits", "security_received", "security_refunded",
        "security_forfeited", "sale_proceeds", "sale_expenses_incurred", "sale_expenses_deducted", "surplus_to_dm",
        "local_fund_due", "local_fund_ledger", "findings"), BY_TABLE["monthly_accounts"].money, ("month", "pound_id")),
    ("corrections", "corrections", BY_TABLE["corrections"].columns, frozenset(),
     ("register", "key", "version", "field_position")),
    # figures of closed months in the period that moved since their close, and why
    ("adjustments", "adjustments", ("month", "pound_id", "measure", "rule_id", "subject_id", "closed_value",
                                    "current_value", "difference", "causes", "closed_by", "closed_at"),
     frozenset(), ("month", "pound_id", "measure", "rule_id", "subject_id")),
)
WHEN_ANY = ("corrections", "adjustments")
# findings on a Tahsildar's removal order (s.14) name no pound and so no local authority
_NO_AUTHORITY_FINDINGS = ("; findings on s.14 removal orders name no local authority: they are in the workbook "
                          "of their district (--district), not here")


def _cover_rows(con, scope: Scope, counts: dict[str, int]) -> list[list]:
    as_of = database.as_of(con)
    stale = record.stale_notice(con)              # files loaded after the figures: said first
    rows: list[list] = ([[stale], []] if stale else []) + [
        ["Audit workbook: local funds and the District Magistrate's deposit "
         "(Karnataka Cattle Trespass Act 1966, Chapter IV)"], []]
    days = {"from": scope.start, "to": scope.end}
    rows += [[what, days[what] if days.get(what) else value] for what, value in scope.describe()]
    rows += [["units", "money in rupees, exact to the paisa; columns named days_* in days; dates as dates"]]
    rows += [["accounts drawn up to (as_of)", as_of],
             ["workbook made", dt.datetime.now().replace(microsecond=0)], []]
    cut = scope.runs_past(as_of)
    if cut:
        rows += [["note", cut], []]
    rows += [["sheet", "rows", "a row is in the period by"]]
    rows.append(["balances", counts.get("balances", 0), "dues by the day due, entries by the day entered"])
    for sheet, model, *_ in TABLES:
        if sheet in counts:
            rows.append([sheet, counts[sheet], BASIS[model][1]
                         + ("; the local authority's whole district" if model in NO_AUTHORITY and scope.local_authority
                            else "")
                         + (_NO_AUTHORITY_FINDINGS if model == "findings" and scope.local_authority else "")])
    rows += [[], ["balances column", "meaning (money in rupees)"]]
    rows += [[c, m] for c, m in balances.MEANING.items()]
    rows += [["reconciliation difference", "ledger_amount - expected_amount: below zero, the ledger is short"]]
    rows += [["monthly_accounts months", "a row for each pound and month up to the month of the accounts' date: a due of a "
                                  "later day of the period (such as a surplus passing to the local fund six months "
                                  "after its sale) is in balances and in no month's row"],
             ["case_accounts unrecovered", "what the proceeds of a sale could not meet; a release paid short is a "
                                           "finding (REL-UNPAID), not an amount unrecovered"]]
    rows += [[], ["parameter", "value", "section", "default"]]
    params = select_records(con, "parameters", col("name"), col("value"), col("section"), col("is_default"),
                            key=["name"])
    rows += [[r["name"], _reading(r["value"]), r["section"], "yes" if r["is_default"] else "no"] for r in params]
    rows += [[], ["input file", "register", "sha256", "rows", "loaded_at", "status"]]
    loads = select_records(con, "loads", col("file"), col("register"), col("sha256"), col("rows"), col("loaded_at"),
                           col("status"), order=["load_id"], key=["file"])
    rows += [[r["file"], r["register"], r["sha256"], int(r["rows"]), r["loaded_at"], r["status"]] for r in loads]
    return rows


def _reading(value):
    """A reading as the parameters table holds it (JSON), as a person writes it."""
    v = database.decoded(value)
    return ", ".join(str(x) for x in v) if isinstance(v, list) else _plain(v)


def _write_cover(wb: xlsx.Workbook, rows: list[list]) -> None:
    ws = wb.sheet("cover", (34, 40, 66, 12, 20, 12), frozen=False, first=True)
    for row in rows:
        heading = len(row) == 1 or (row and row[0] in ("sheet", "balances column", "parameter", "input file"))
        ws.append([xlsx.Cell(v, xlsx.BOLD) if i == 0 and heading and isinstance(v, str) else v
                   for i, v in enumerate(row)])


def write_audit_file(con, scope: Scope, path: Path) -> tuple[Path, dict[str, int]]:
    """The scope's workbook at `path`; returns it and the rows written per sheet."""
    with xlsx.Workbook(path) as wb:
        counts: dict[str, int] = {}
        bal = balances.period_balances(con, scope)
        counts["balances"] = _write_sheet(wb, "balances", list(balances.COLUMNS),
                                          [tuple(r[c] for c in balances.COLUMNS) for r in bal], lambda: [],
                                          set(balances.MONEY))
        for sheet, model, columns, money, order in TABLES:
            # a correction names no local authority: it is cut by the authority's district
            within = dataclasses.replace(scope, local_authority=None) if model in NO_AUTHORITY else scope
            names, cur, _ = select_rows(con, model, *(col(c) for c in columns), order=order, scope=within)
            first = cur.fetchmany(2000)
            if not first and sheet in WHEN_ANY:
                continue
            counts[sheet] = _write_sheet(wb, sheet, names, first, lambda cur=cur: cur.fetchmany(20000), set(money))
        _write_cover(wb, _cover_rows(con, scope, counts))
        return wb.save(), counts
