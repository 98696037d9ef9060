"""Build every computed table from the loaded registers, layer by layer.

Each model is one SQL file whose name is the table it makes (models.py); the
runner wraps its SELECT as `CREATE OR REPLACE TABLE <name> AS ...` (or a view, where its file
says so: models.py). Layers only look back: registers -> staging -> intermediate -> accounts ->
rules -> reconcile -> marts. Rules (sql/rules/<RULE-ID>.sql) each return offending rows
in the columns of a finding; they are stacked into the `findings` table (rules.py).

A build is one transaction on one connection, at every scale: killed, or stopped by a failing
model or check, it leaves every table as it was before it began (docs/design.md, "A build is
whole or not at all").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import duckdb

from pipeline.build.models import LAYERS, Model, all_models, check_layers
from pipeline.build.record import record as record_build
from pipeline.build.rules import FINDING_COLUMNS, Rule, findings_sql, load_rules, rules_read
from pipeline.core.params import Parameters
from pipeline.core.paths import SQL_DIR
from pipeline.core.progress import QUIET, Progress
from pipeline.load import connection, decisions, schema

__all__ = ["FINDING_COLUMNS", "LAYERS", "Model", "Rule", "build", "build_order", "check_layers", "load_rules", "needed_by"]

# Column types a model must not make: money and counts are integers (and every DECIMAL).
_INEXACT = ("DOUBLE", "FLOAT", "REAL")


def _not_exact_kind(kind: str) -> bool:
    return kind in _INEXACT or kind.startswith("DECIMAL")


def _not_exact(table: str, column: str, kind: str) -> RuntimeError:
    return RuntimeError(f"model {table} made column {column} of type {kind}; money and counts must be integers")


def _made_exact(con: duckdb.DuckDBPyConnection, m: Model) -> list[str]:
    """The model just made, with every HUGEINT column made BIGINT, so that the finished table is
    exact and plain: DuckDB gives sums as HUGEINT, which pandas would turn into floats. This is
    for a model the manifest does not hold as it is (its casts are otherwise made with the table,
    _make): its columns are read off the catalogue (`table_info`, one table's entry); a table's
    HUGEINT columns are altered in place, a view is made again with them cast. A floating-point
    or DECIMAL column is a defect in a model and stops the build. Gives the HUGEINT columns."""
    kinds = [(c, k) for _, c, k, *_ in con.execute(f"PRAGMA table_info('{m.name}')").fetchall()]
    floats = [(c, k) for c, k in kinds if _not_exact_kind(k)]
    if floats:
        raise _not_exact(m.name, *floats[0])
    huge = [c for c, k in kinds if k == "HUGEINT"]
    _to_bigint(con, m, huge)
    return huge


def _to_bigint(con: duckdb.DuckDBPyConnection, m: Model, huge: list[str]) -> None:
    if not huge:
        return
    if m.is_view:
        con.execute(f"CREATE OR REPLACE {'TEMP VIEW' if m.is_temporary else 'VIEW'} {m.name} AS {_cast(m.sql, huge)}")
        return
    for c in huge:
        con.execute(f'ALTER TABLE {m.name} ALTER COLUMN "{c}" TYPE BIGINT')


def _cast(sql: str, huge: tuple[str, ...] | list[str]) -> str:
    """The model's SELECT with the given columns cast to BIGINT, in their places."""
    casts = ", ".join(f'CAST("{c}" AS BIGINT) AS "{c}"' for c in huge)
    return f"SELECT * REPLACE ({casts}) FROM (\n{sql}\n)"


def _check_kinds(con: duckdb.DuckDBPyConnection, steps: list[Model]) -> None:
    """No finished model holds a floating-point column (one look at the catalogue), and none a
    HUGEINT: one the manifest did not foresee (its entry stale against a model it reads) is made
    BIGINT here, as _made_exact would have."""
    tables = schema.catalogue(con)
    # the views of the build are the connection's own (TEMP): the database's catalogue does not list them
    for t, c, k in con.execute("SELECT table_name, column_name, data_type FROM duckdb_columns() "
                               "WHERE database_name = 'temp' ORDER BY table_name, column_index").fetchall():
        tables.setdefault(t, []).append((c, k))
    by_name = {m.name: m for m in steps if not m.is_macros}
    bad = [(t, c, k) for t in by_name for c, k in tables.get(t, ()) if _not_exact_kind(k)]
    if bad:
        raise _not_exact(*bad[0])
    for t, m in by_name.items():
        _to_bigint(con, m, [c for c, k in tables.get(t, ()) if k == "HUGEINT"])


def _existing(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The tables and views of the database by name: a model made as one kind before is dropped
    before it is made as the other."""
    return dict(con.execute("SELECT table_name, table_type FROM information_schema.tables "
                            "WHERE table_schema = 'main' AND table_catalog = current_database()").fetchall())


def _check_rollforward(con: duckdb.DuckDBPyConnection) -> None:
    bad = con.execute("SELECT month, pound_id, heads_check FROM monthly_accounts WHERE heads_check <> 0 LIMIT 5").fetchall()
    if bad:
        raise RuntimeError(f"the head-count roll-forward does not balance: {bad}")
    _check_balances(con)


# Per ledger and local authority: the last month's closing balance of fund_balances against
# what the reconciliation leaves due but not credited (its rows' differences, of the same sign).
# An expected credit with no due day (the DM's six months not begun, s.18(5)) is not due yet:
# only what was entered against it counts.
_BALANCES_TIE = """
WITH closing AS (
    SELECT ledger, local_authority_id, arg_max(closing_due_not_credited, month) AS closing
    FROM fund_balances GROUP BY ALL
), reconciled AS (
    SELECT ledger, local_authority_id, sum(x) AS outstanding FROM (
        SELECT ledger, local_authority_id,
               -(CASE WHEN expected_amount IS NOT NULL AND due_on IS NULL THEN coalesce(ledger_amount, 0)
                      ELSE difference END) AS x FROM reconciliation
        WHERE ledger = 'local_fund' OR head = 'receipt'
        -- parts of a surplus due after the as-of date, beside a part due (R12)
        UNION ALL SELECT ledger, local_authority_id, due_later FROM expected_credits) GROUP BY ALL
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


def build_order(rules: list[Rule] | None = None) -> list[Model]:
    """Every model in build order, the findings table (made from the rules) among them."""
    rules = load_rules() if rules is None else rules
    findings = Model("findings", "rules", SQL_DIR / "rules", findings_sql(rules), rules_read(rules))
    return all_models(findings)


def needed_by(steps: list[Model], tables: tuple[str, ...]) -> list[Model]:
    """The steps (in build order) that making `tables` needs: themselves, the macro files of
    their layers and the layers before, and every model these read, directly or through others."""
    by_name = {m.name: m for m in steps if not m.is_macros}
    unknown = [t for t in tables if t not in by_name]
    if unknown:
        raise ValueError(f"no model makes {', '.join(unknown)}")
    last = max(LAYERS.index(by_name[t].layer) for t in tables)
    macros = [m for m in steps if m.is_macros and LAYERS.index(m.layer) <= last]
    needed: set[str] = set()
    todo = [*tables, *(t for m in macros for t in m.reads)]
    while todo:
        name = todo.pop()
        if name in needed or name not in by_name:
            continue
        needed.add(name)
        todo.extend(by_name[name].reads)
    return [m for m in steps if m.name in needed or m in macros]


def build(con: duckdb.DuckDBPyConnection, params: Parameters, progress: Progress = QUIET,
          upto: str | tuple[str, ...] | None = None,
          first: Callable[[duckdb.DuckDBPyConnection], object] | None = None,
          last: Callable[[duckdb.DuckDBPyConnection], object] | None = None) -> None:
    """Compute every model, in one transaction; with `upto` (a table or several), only those and
    the models they read, directly or through others (what a test of the rules, or synth, needs:
    for the findings, some of the models before them, as needed_by() finds them). `first`, when given, runs inside the same
    transaction before the models (the run reads the closes afresh there: load/closes.py), so
    that what it writes stands or falls with the build. `last`, when given, runs inside it after
    the models and the build's record (the exports are written there, from the figures about to
    be committed: pipeline/steps/build.py)."""
    rules = load_rules()
    steps = build_order(rules)
    if upto is not None:
        steps = needed_by(steps, (upto,) if isinstance(upto, str) else tuple(upto))
    tables = [m for m in steps if not m.is_macros]
    with connection.one_transaction(con):
        if first is not None:
            first(con)
        connection.threads_for_tables(con)
        _prelude(con, params)
        existing = _existing(con)
        made: list[str] = []
        for m in steps:
            if m.is_macros:                  # connection-local macros; a macro that reads a table
                con.execute(m.sql)           # is bound to it, so it runs once what it reads is made
                continue
            progress.step(f"[{len(made) + 1}/{len(tables)}] computing {m.name}")
            _make(con, m, existing.get(m.name))
            made.append(m.name)
        _check_kinds(con, steps)
        if upto is None:
            _check_rollforward(con)
            record_build(con, params.as_of)
        if last is not None:
            last(con)
    if upto is None:
        progress.done(f"computed {len(tables)} tables and {len(rules)} rules")


def _prelude(con: duckdb.DuckDBPyConnection, params: Parameters) -> None:
    """What every model may read besides the tables: the parameters and the macros."""
    params.apply(con)
    con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    con.execute(schema.current_macros())     # current_<table>(): each register's current versions
    con.execute(decisions.known_by_macro())   # decision_known_by(): the load's rule for a decision


def inferred_casts() -> dict[str, list[str]]:
    """Each model's HUGEINT columns, as DuckDB makes them: every model built, without the
    manifest's casts, in an empty database (a column's type does not depend on the rows). What
    `make manifest` writes, and a test proves the committed manifest equal to."""
    con = duckdb.connect()
    try:
        schema.ensure_schema(con)
        _prelude(con, Parameters({}, as_of=dt.date(2000, 1, 1)))
        out: dict[str, list[str]] = {}
        for m in build_order():
            if m.is_macros:
                con.execute(m.sql)
                continue
            con.execute(f"CREATE {'VIEW' if m.is_view else 'TABLE'} {m.name} AS\n{m.sql}")
            out[m.name] = _made_exact(con, m)
        return out
    finally:
        con.close()


def _make(con: duckdb.DuckDBPyConnection, m: Model, was: str | None) -> None:
    """CREATE OR REPLACE the model's table (or view), its HUGEINT columns cast to BIGINT as the
    manifest holds them (or, for a model it does not hold, altered after: _made_exact); one made
    as the other kind before is dropped first."""
    kind = "TEMP VIEW" if m.is_temporary else "VIEW" if m.is_view else "TABLE"
    if was is not None and ((was == "VIEW") != m.is_view or m.is_temporary):
        # made as the other kind before, or kept in the database by a build before it was a view
        # of the build alone (a later command would read those stale rows)
        con.execute(f"DROP {'VIEW' if was == 'VIEW' else 'TABLE'} {m.name}")
    try:
        con.execute(f"CREATE OR REPLACE {kind} {m.name} AS\n{_cast(m.sql, m.casts) if m.casts else m.sql}")
        if m.casts is None:
            _made_exact(con, m)
    except duckdb.Error as exc:
        where = "rules/*.sql" if m.name == "findings" else f"{m.layer}/{m.name}.sql"
        raise RuntimeError(f"model {where} failed: {exc}") from exc
