"""Build every computed table from the loaded registers, layer by layer.

Each model is one SQL file whose name is the table it makes (models.py); the
runner wraps its SELECT as `CREATE OR REPLACE TABLE <name> AS ...`. Layers only
look back: registers -> staging -> intermediate -> accounts -> rules ->
reconcile -> marts. Rules (sql/rules/<RULE-ID>.sql) each return offending rows
in the columns of a finding; they are stacked into the `findings` table (rules.py).
"""

from __future__ import annotations

import duckdb

from pipeline.build.models import LAYERS, Model, all_models, check_layers
from pipeline.build.rules import FINDING_COLUMNS, Rule, findings_sql, load_rules, rules_read
from pipeline.core.params import Parameters
from pipeline.core.paths import SQL_DIR
from pipeline.core.progress import QUIET, Progress

__all__ = ["FINDING_COLUMNS", "LAYERS", "Model", "Rule", "build", "check_layers", "load_rules", "models"]

def _plain_select(con: duckdb.DuckDBPyConnection, m: Model) -> str:
    """The model's SELECT with every HUGEINT column cast to BIGINT, so that the finished table is
    exact and plain: DuckDB gives sums as HUGEINT, which pandas would turn into floats. A
    floating-point column anywhere is a defect in a model and stops the build."""
    kinds = con.execute(f"DESCRIBE {m.sql}").fetchall()
    floats = [(c, k) for c, k, *_ in kinds if k in ("DOUBLE", "FLOAT", "REAL") or k.startswith("DECIMAL")]
    if floats:
        col, kind = floats[0]
        raise RuntimeError(f"model {m.name} made column {col} of type {kind}; money and counts must be integers")
    huge = [c for c, k, *_ in kinds if k == "HUGEINT"]
    if not huge:
        return m.sql
    casts = ", ".join(f'CAST("{c}" AS BIGINT) AS "{c}"' for c in huge)
    return f"SELECT * REPLACE ({casts}) FROM (\n{m.sql}\n)"


def _existing(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The tables and views of the database by name: a model made as one kind before is dropped
    before it is made as the other."""
    return dict(con.execute("SELECT table_name, table_type FROM information_schema.tables "
                            "WHERE table_schema = 'main'").fetchall())


def _check_rollforward(con: duckdb.DuckDBPyConnection) -> None:
    bad = con.execute("SELECT month, pound_id, heads_check FROM monthly_accounts WHERE heads_check <> 0 LIMIT 5").fetchall()
    if bad:
        raise RuntimeError(f"the head-count roll-forward does not balance: {bad}")
    _check_balances(con)


# Per ledger and local authority: the last month's closing balance of fund_balances against
# what the reconciliation leaves due but not credited (its rows' differences, of the same sign).
_BALANCES_TIE = """
WITH closing AS (
    SELECT ledger, local_authority_id, arg_max(closing_due_not_credited, month) AS closing
    FROM fund_balances GROUP BY ALL
), reconciled AS (
    SELECT ledger, local_authority_id, -sum(difference) AS outstanding FROM reconciliation
    WHERE ledger = 'local_fund' OR head = 'receipt' GROUP BY ALL
)
SELECT coalesce(c.ledger, r.ledger), coalesce(c.local_authority_id, r.local_authority_id), c.closing, r.outstanding
FROM closing c FULL JOIN reconciled r
  ON c.ledger = r.ledger AND c.local_authority_id IS NOT DISTINCT FROM r.local_authority_id
WHERE coalesce(c.closing, 0) <> coalesce(r.outstanding, 0) LIMIT 5
"""


def _check_balances(con: duckdb.DuckDBPyConnection) -> None:
    """opening + due - credited = closing in every month of every fund, and the balances end
    where the reconciliation does."""
    bad = con.execute("SELECT ledger, local_authority_id, month, balance_check FROM fund_balances "
                      "WHERE balance_check <> 0 LIMIT 5").fetchall()
    if bad:
        raise RuntimeError(f"the fund balances do not roll forward (opening + due - credited <> closing): {bad}")
    bad = con.execute(_BALANCES_TIE).fetchall()
    if bad:
        raise RuntimeError(f"the fund balances do not end where the reconciliation does: {bad}")


def models(rules: list[Rule] | None = None) -> list[Model]:
    """Every model in build order, the findings table (made from the rules) among them."""
    rules = load_rules() if rules is None else rules
    findings = Model("findings", "rules", SQL_DIR / "rules", findings_sql(rules), rules_read(rules))
    return all_models(findings)


def build(con: duckdb.DuckDBPyConnection, params: Parameters, progress: Progress = QUIET,
          upto: str | None = None) -> None:
    """Compute every model (or those up to and including the table `upto`)."""
    params.apply(con)
    con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    rules = load_rules()
    steps = models(rules)
    tables = [m for m in steps if not m.is_macros]
    existing = _existing(con)
    n = 0
    for m in steps:
        if m.is_macros:
            con.execute(m.sql)
            continue
        n += 1
        progress.step(f"[{n}/{len(tables)}] computing {m.name}")
        kind = "VIEW" if m.is_view else "TABLE"
        was = existing.get(m.name)
        if was is not None and (was == "VIEW") != m.is_view:
            con.execute(f"DROP {'VIEW' if was == 'VIEW' else 'TABLE'} {m.name}")
        try:
            con.execute(f"CREATE OR REPLACE {kind} {m.name} AS\n{_plain_select(con, m)}")
        except duckdb.Error as exc:
            where = "rules/*.sql" if m.name == "findings" else f"{m.layer}/{m.name}.sql"
            raise RuntimeError(f"model {where} failed: {exc}") from exc
        if upto == m.name:
            return
    _check_rollforward(con)
    progress.done(f"computed {len(tables)} tables and {len(rules)} rules")
