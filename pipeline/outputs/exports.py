"""Write the computed tables as CSV files (and the audit workbook) into OUT.

Money is held as integer paise everywhere; it becomes rupees with exactly two
decimals only here, as text made by the SQL macro rupees(), so no float ever
touches it. Dates are ISO. The columns the interface promises come first, in
its order; the columns that trace each figure back to its source follow.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.core.progress import QUIET, Progress


@dataclass(frozen=True)
class Export:
    table: str
    columns: tuple[str, ...]        # the contract's columns, in order
    money: frozenset[str]           # paise columns, written as rupees
    order: str                      # ORDER BY, for files that compare byte for byte
    file: str = ""                  # the file's name, when it is not the table's

    @property
    def name(self) -> str:
        return self.file or self.table


EXPORTS: tuple[Export, ...] = (
    Export("case_accounts",
           ("case_id", "pound_id", "local_authority_id", "animal_class", "head_count", "impounded_on", "status",
            "closed_on", "days_charged", "fine_due", "feeding_due", "security_due", "head_sold", "sale_proceeds",
            "sale_expenses", "balance_to_owner", "surplus_unclaimed", "unrecovered"),
           frozenset({"fine_due", "feeding_due", "security_due", "sale_proceeds", "sale_expenses", "balance_to_owner",
                      "surplus_unclaimed", "unrecovered", "fine_per_head", "feeding_per_head_per_day",
                      "sale_due_expenses", "sale_due_feeding", "sale_due_fines", "sale_due_security", "sale_due_total",
                      "sale_paid_expenses", "sale_paid_feeding", "sale_paid_fines", "sale_paid_security",
                      "balance_paid_to_owner", "balance_unclaimed", "surplus_to_dm", "feeding_overdue",
                      "sale_due_feeding_overdue", "sale_paid_feeding_overdue", "sale_unrecovered",
                      "remainder_unrecovered"}),
           "case_id"),
    Export("fund_movements",
           ("ref_kind", "ref_id", "section", "account", "account_id", "amount", "due_on"),
           frozenset({"amount"}),
           "ref_kind, ref_id, hop, due_on, section, account, account_id"),
    Export("security_status",
           ("deposit_id", "owner_id", "deposited_on", "amount", "window_ends_on", "reimpound_case_id", "computed",
            "recorded"),
           frozenset({"amount", "case_security_at_rate", "refunded_amount", "forfeited_amount"}),
           "deposit_id"),
    Export("findings",
           ("rule_id", "section", "severity", "subject_kind", "subject_id", "case_id", "pound_id",
            "local_authority_id", "event_on", "detail", "review_status", "reviewed_on", "reviewed_by", "review_note",
            "days_open"),
           frozenset(),
           "severity_rank, rule_id, event_on, subject_id"),
    Export("reconciliation",
           ("ledger", "local_authority_id", "reference", "head", "expected_amount", "due_on", "ledger_amount",
            "entry_on", "difference", "status"),
           frozenset({"expected_amount", "ledger_amount", "difference", "difference_due", "status_amount"}),
           "ledger, local_authority_id, reference, head"),
    Export("monthly_accounts",
           ("month", "pound_id", "local_authority_id", "taluk", "district"),
           frozenset({"fines_received", "feeding_received", "protest_deposits", "security_received",
                      "security_refunded", "security_forfeited", "sale_proceeds", "sale_expenses_incurred",
                      "sale_expenses_deducted", "surplus_to_dm", "local_fund_due", "local_fund_ledger"}),
           "month, pound_id"),
    Export("owner_accounts",
           ("case_id", "sale_id", "path", "owner_id", "owner_name", "pound_id", "a_cattle_seized", "impounded_on",
            "sold_on", "b_days_impounded", "c_fines_and_charges_payable", "d_cattle_sold", "e_proceeds"),
           frozenset({"c_fines_and_charges_payable", "c_fines", "c_feeding", "c_security", "e_proceeds",
                      "f_expenses_of_sale", "f_feeding_deducted", "f_fines_deducted", "f_security_deducted",
                      "f_balance_to_owner", "f_balance_paid", "f_balance_held", "f_surplus_to_dm", "f_unrecovered",
                      "c_feeding_overdue", "f_feeding_overdue_deducted"}),
           "case_id"),
    Export("corrections",
           ("register", "key", "version", "field", "was", "now", "correction_note", "file", "row", "loaded_at",
            "event_month"),
           frozenset(),
           "register, key, version, field_position"),
    Export("review_log",
           ("rule_id", "subject_id", "reviewed_on", "reviewed_by", "decision", "note", "finding_raised", "standing"),
           frozenset(),
           "reviewed_on, rule_id, subject_id", file="finding_reviews"),
    Export("adjustments",
           ("month", "district", "pound_id", "measure", "closed_value", "current_value", "difference", "causes"),
           frozenset(),
           "month, district, pound_id, measure, rule_id, subject_id"),
)
BY_TABLE = {e.table: e for e in EXPORTS}


def table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """The table's columns in order, as a relation on it names them (a fifth of the time of
    asking duckdb_columns(), which lists every column of the database, once an export)."""
    return list(con.table(table).columns)


# Columns the models join on and nobody reads: the reference folded for matching (the reference
# itself, as entered, is exported beside it)
JOIN_KEYS = frozenset({"case_ref"})


def export_select(con: duckdb.DuckDBPyConnection, spec: Export, money_as_text: bool = True,
                  only: tuple[str, ...] | None = None) -> str:
    """The SELECT that gives an export's rows, contract columns first; money as rupee text
    (for CSV) or as paise (for the workbook, which formats numbers itself). With `only`,
    the contract columns are followed by just those of the others that the table has."""
    have = table_columns(con, spec.table)
    missing = [c for c in spec.columns if c not in have]
    if missing:
        raise RuntimeError(f"table {spec.table} lacks export columns {missing}")
    rest = [c for c in have if c not in spec.columns and c not in JOIN_KEYS and (only is None or c in only)]
    ordered = list(spec.columns) + rest
    parts = [f'rupees("{c}") AS "{c}"' if c in spec.money and money_as_text else f'"{c}"' for c in ordered]
    return f"SELECT {', '.join(parts)} FROM {spec.table} ORDER BY {spec.order}"


def write_csv(con: duckdb.DuckDBPyConnection, spec: Export, path: Path) -> Path:
    con.execute(f"COPY ({export_select(con, spec)}) TO '{_sql_path(path)}' (HEADER, DELIMITER ',', QUOTE '\"')")
    return path


def _sql_path(path: Path) -> str:
    return str(path).replace("'", "''")


# The four exports of a row per case, movement, expected entry or owner's account: at a district's
# scale a spreadsheet opens them; at a state's (962,000 cases, 3 million movements) they are 1.4 GB
# of CSV that no page and no command reads, and their sort sets the run's peak memory. `pound run`
# and `pound build` write them while each holds at most LARGE_EXPORT_MAX_ROWS rows, or when asked
# (--exports all); `pound export` writes them at any size, as Parquet or CSV (docs/guide-office.md).
LARGE_EXPORTS = ("case_accounts", "fund_movements", "reconciliation", "owner_accounts")
LARGE_EXPORT_MAX_ROWS = 200_000
EXPORT_CHOICES = ("auto", "all")        # auto: the large ones only up to LARGE_EXPORT_MAX_ROWS rows


def large_left_out(con: duckdb.DuckDBPyConnection, exports: str = "auto") -> dict[str, int]:
    """The large exports a build leaves to `pound export`, with their rows: none with `exports` "all"."""
    if exports not in EXPORT_CHOICES:
        raise ValueError(f"exports {exports!r}: one of {EXPORT_CHOICES}")
    if exports == "all":
        return {}
    rows = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in LARGE_EXPORTS}
    return {t: n for t, n in rows.items() if n > LARGE_EXPORT_MAX_ROWS}


def write_csvs(con: duckdb.DuckDBPyConnection, out: Path, progress: Progress = QUIET,
               left_out: dict[str, int] | None = None) -> list[Path]:
    """Every export of EXPORTS as OUT/<table>.csv, but those of `left_out` (large_left_out)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in EXPORTS:
        if left_out and spec.table in left_out:
            continue
        progress.step(f"writing {spec.name}.csv")
        written.append(write_csv(con, spec, out / f"{spec.name}.csv"))
    return written


def write_extract(con: duckdb.DuckDBPyConnection, spec: Export, path: Path, where: list) -> Path:
    """The rows of an export that meet `where` (conditions of read.select) as a CSV file, written
    as write_csv writes the whole table: a month's extract, sealed in its close."""
    params: list = []
    cond = " AND ".join(w.sql(params) for w in where) or "true"
    con.execute(f"COPY (SELECT * FROM ({export_select(con, spec)}) WHERE {cond} ORDER BY {spec.order}) "
                f"TO '{_sql_path(path)}' (HEADER, DELIMITER ',', QUOTE '\"')", params)
    return path
