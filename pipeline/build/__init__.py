"""Build every computed table from the loaded registers, in a declared order.

Each model is one SQL file whose name is the table it makes; the runner wraps
its SELECT as `CREATE OR REPLACE TABLE <name> AS ...`. Layers only look back:
registers -> staging -> accounts -> rules -> reconciliation -> marts.
Rules (sql/rules/<RULE-ID>.sql) each return offending rows in the columns of
a finding; the runner stacks them into the `findings` table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.core import paths
from pipeline.core.params import Parameters
from pipeline.core.progress import QUIET, Progress

SQL_DIR = paths.SQL_DIR

MODELS: tuple[tuple[str, str], ...] = (
    ("staging", "stg_notifications"),
    ("staging", "stg_rate_rows"),
    ("", "macros"),            # sql/macros.sql: run as it is; its macros read the two tables above
    # the registers as they stood on as_of
    ("staging", "stg_impoundments"),
    ("staging", "stg_complaints"),
    ("staging", "stg_police_reports"),
    ("staging", "stg_deposits"),
    ("staging", "stg_removal_orders"),
    ("staging", "stg_local_fund"),
    ("staging", "stg_dm_deposit"),
    ("staging", "stg_cases"),
    ("staging", "stg_releases"),
    ("staging", "stg_sales"),
    ("staging", "stg_leaves"),
    ("staging", "stg_case_sales"),
    ("staging", "stg_case_timeline"),
    ("accounts", "case_accounts"),
    ("accounts", "security_status"),
    ("accounts", "fund_movements"),
    ("accounts", "owner_accounts"),
    ("rules", "findings"),
    ("reconcile", "reconciliation"),
    ("marts", "monthly_accounts"),
)

FINDING_COLUMNS = ("rule_id", "section", "severity", "subject_kind", "subject_id", "case_id",
                   "pound_id", "local_authority_id", "event_on", "detail")


@dataclass(frozen=True)
class Rule:
    """A rule file: its id and the header fields that describe it."""

    rule_id: str
    path: Path
    section: str
    severity: str
    subject: str
    checks: str
    reading: str
    sql: str


_HEADER = re.compile(r"^--\s*(rule|section|severity|subject|checks|reading):\s*(.*)$")


def load_rules() -> list[Rule]:
    rules = []
    for path in sorted((SQL_DIR / "rules").glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        fields: dict[str, str] = {}
        last = None
        for line in text.splitlines():
            m = _HEADER.match(line)
            if m:
                last = m.group(1)
                fields[last] = m.group(2).strip()
            elif last and line.startswith("--   "):
                fields[last] += " " + line[5:].strip()
            elif not line.startswith("--"):
                break
            else:
                last = None
        missing = {"rule", "section", "severity", "subject", "checks", "reading"} - fields.keys()
        if missing:
            raise RuntimeError(f"{path.name}: header lacks {', '.join(sorted(missing))}")
        if fields["rule"] != path.stem:
            raise RuntimeError(f"{path.name}: header names rule {fields['rule']}")
        rules.append(Rule(fields["rule"], path, fields["section"], fields["severity"], fields["subject"],
                          fields["checks"], fields["reading"], text))
    return rules


def _sql(layer: str, name: str) -> str:
    return (SQL_DIR / layer / f"{name}.sql").read_text(encoding="utf-8")


def _findings_sql(rules: list[Rule]) -> str:
    cols = ", ".join(FINDING_COLUMNS)
    if not rules:
        return ("SELECT " + ", ".join(f"CAST(NULL AS {'DATE' if c == 'event_on' else 'VARCHAR'}) AS {c}"
                                      for c in FINDING_COLUMNS) + " WHERE false")
    parts = []
    for r in rules:
        body = r.sql.strip().rstrip(";")
        parts.append(
            f"SELECT '{r.rule_id}' AS rule_id, '{r.section}' AS section, '{r.severity}' AS severity, "
            f"subject_kind, CAST(subject_id AS VARCHAR) AS subject_id, CAST(case_id AS VARCHAR) AS case_id, "
            f"CAST(pound_id AS VARCHAR) AS pound_id, CAST(local_authority_id AS VARCHAR) AS local_authority_id, "
            f"CAST(event_on AS DATE) AS event_on, detail FROM (\n{body}\n)")
    return (f"SELECT {cols} FROM (\n" + "\nUNION ALL\n".join(parts)
            + "\n) ORDER BY CASE severity WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END, "
              "rule_id, event_on, subject_id")


def _settle_types(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Keep every finished table exact and plain: sums come back from DuckDB as
    HUGEINT (which pandas would turn into floats), so they become BIGINT; a
    floating-point column anywhere is a defect in a model and stops the build."""
    cols = con.execute("SELECT column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = 'main' AND table_name = ?", [table]).fetchall()
    for col, kind in cols:
        if kind == "HUGEINT":
            con.execute(f'ALTER TABLE {table} ALTER "{col}" TYPE BIGINT')
        elif kind in ("DOUBLE", "FLOAT", "REAL") or kind.startswith("DECIMAL"):
            raise RuntimeError(f"model {table} made column {col} of type {kind}; money and counts must be integers")


def _check_rollforward(con: duckdb.DuckDBPyConnection) -> None:
    bad = con.execute("SELECT month, pound_id, heads_check FROM monthly_accounts WHERE heads_check <> 0 LIMIT 5").fetchall()
    if bad:
        raise RuntimeError(f"the head-count roll-forward does not balance: {bad}")


def build(con: duckdb.DuckDBPyConnection, params: Parameters, progress: Progress = QUIET,
          upto: str | None = None) -> None:
    """Compute every model (or those up to and including `upto`)."""
    params.apply(con)
    rules = load_rules()
    for i, (layer, name) in enumerate(MODELS, 1):
        progress.step(f"[{i}/{len(MODELS)}] computing {name}")
        if name == "macros":
            con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
            continue
        if name == "findings":
            sql = _findings_sql(rules)
        else:
            sql = _sql(layer, name)
        try:
            con.execute(f"CREATE OR REPLACE TABLE {name} AS\n{sql}")
        except duckdb.Error as exc:
            raise RuntimeError(f"model {layer}/{name}.sql failed: {exc}") from exc
        _settle_types(con, name)
        if upto == name:
            break
    if upto is None:
        _check_rollforward(con)
    progress.done(f"computed {len(MODELS)} tables and {len(rules)} rules")
