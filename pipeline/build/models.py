"""The SQL models: one file per table, one folder per layer, and what each reads.

`pipeline/sql/<layer>/<table>.sql` holds one SELECT; the runner makes it
`CREATE OR REPLACE TABLE <table> AS ...`, or a view where the file says `-- made as: view` or
`-- made as: view of the build` (Model.is_view, is_temporary). The layers run in the order of LAYERS;
within a layer, a model runs after the models of its own layer that it reads, so no
order is kept by hand. What each SQL file reads is DuckDB's parse of it, written down once in
the committed manifest `sql/manifest.json` (`make manifest` writes it again; a test proves it
equal to the parse): a run looks the reads up there by a hash of the file's text rather than
parsing some hundred files, and parses only a file the manifest does not hold as it is. A file whose name starts
with `_` holds macros and runs before the layer's models. `macros.sql` at the top
of sql/ holds the macros that read no table; it runs first.

Layers only look back (docs/design.md): staging reads the register tables and
nothing else; every other layer reads models of earlier layers and earlier models
of its own layer. `check_layers()` proves it, and a test runs it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import duckdb

from pipeline.core.paths import SQL_DIR
from pipeline.core.registers import REGISTERS
from pipeline.load.schema import CLOSE_TABLES

# The layers in the order they are built. rules/ holds one query per rule id; they are
# stacked into the one table `findings` (see rules.py).
LAYERS: tuple[str, ...] = ("staging", "intermediate", "accounts", "rules", "reconcile", "marts")
REGISTER_TABLES = frozenset(r.table for r in REGISTERS)
# Tables the database holds besides the models: the registers, what was loaded, the readings.
SOURCE_TABLES = REGISTER_TABLES | {"loads", "parameters", "register_columns"} | set(CLOSE_TABLES)


@dataclass(frozen=True)
class Model:
    """One SQL file that makes one table (or, for a `_` file, some macros)."""

    name: str
    layer: str
    path: Path
    sql: str
    reads: frozenset[str] = field(default=frozenset())
    # The columns DuckDB makes HUGEINT (its sums), made BIGINT as the table is made: from the
    # manifest; None for a file it does not hold as it is (the build then asks the catalogue).
    casts: tuple[str, ...] | None = None

    @property
    def is_macros(self) -> bool:
        return self.name.startswith("_")

    @property
    def is_view(self) -> bool:
        """A model whose file says `-- made as: view` is a view, computed when it is read: for a
        large listing that only a few models read through a narrow filter. One whose file says
        `-- made as: view of the build` is a view too (is_temporary)."""
        return bool(_VIEW.search(self.sql))

    @property
    def is_temporary(self) -> bool:
        """A model whose file says `-- made as: view of the build` is a view of the building
        connection alone (TEMP): the few models after it that read it compute it again, which
        costs less at a state's scale than writing its rows into the database, and no command
        after the build can read it. It may read what only the build has (as_of())."""
        made = _VIEW.search(self.sql)
        return made is not None and made.group(1) is not None


def _walk(node, tables: set[str], ctes: set[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "BASE_TABLE" and node.get("table_name"):
            tables.add(node["table_name"])
        cte_map = node.get("cte_map")
        if isinstance(cte_map, dict):
            for entry in cte_map.get("map", []):
                ctes.add(entry.get("key"))
        for value in node.values():
            _walk(value, tables, ctes)
    elif isinstance(node, list):
        for value in node:
            _walk(value, tables, ctes)


@cache
def _parser() -> duckdb.DuckDBPyConnection:
    """An empty in-memory database, kept for parsing the models' SQL."""
    return duckdb.connect()


_VIEW = re.compile(r"^-- made as: view( of the build)?$", re.M)


_FROM = re.compile(r"\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)", re.I)


@cache
def tables_read(sql: str) -> frozenset[str]:
    """The tables a SELECT reads (its own CTEs left out), from DuckDB's parse of it.

    A macro file is not a SELECT; its table names are taken from FROM and JOIN clauses.
    """
    parsed = json.loads(_parser().execute("SELECT json_serialize_sql(?)", [sql]).fetchone()[0])
    if parsed.get("error"):
        return frozenset(m.lower() for m in _FROM.findall(re.sub(r"--[^\n]*", "", sql)))
    tables: set[str] = set()
    ctes: set[str] = set()
    _walk(parsed, tables, ctes)
    return frozenset(t.lower() for t in tables - ctes)


MANIFEST = SQL_DIR / "manifest.json"


def _digest(sql: str) -> str:
    return hashlib.sha256(sql.encode("utf-8")).hexdigest()


@cache
def _manifest() -> dict[str, dict]:
    """The manifest's entries by the hash of the text they were made from (empty when it is missing)."""
    try:
        entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["files"]
    except FileNotFoundError:
        return {}
    return {e["sha256"]: e for e in entries.values()}


def reads(sql: str) -> frozenset[str]:
    """The tables a model, a macro file or a rule reads: the manifest's entry for this very text,
    else DuckDB's parse of it (a file edited since `make manifest`)."""
    known = _manifest().get(_digest(sql))
    return frozenset(known["reads"]) if known is not None else tables_read(sql)


def casts(sql: str) -> tuple[str, ...] | None:
    """The columns of a model that DuckDB makes HUGEINT, as the manifest holds them for this very
    text; None when it does not hold the text."""
    known = _manifest().get(_digest(sql))
    return tuple(known["hugeint"]) if known is not None and "hugeint" in known else None


def manifest_files() -> list[Path]:
    """Every SQL file whose reads the manifest holds: the layers' models and macro files, the
    rules and the filing query (macros.sql reads no table)."""
    return sorted(p for p in SQL_DIR.rglob("*.sql") if p != SQL_DIR / "macros.sql")


def parsed_manifest(hugeint: dict[str, list[str]] | None = None) -> dict:
    """The manifest as DuckDB's parse of the SQL files gives it now; with `hugeint` (each table
    model's HUGEINT columns, as a build in an empty database finds them: pipeline.build.inferred_casts),
    a model file's entry holds them too."""
    files = {}
    for path in manifest_files():
        sql = path.read_text(encoding="utf-8")
        entry = {"sha256": _digest(sql), "reads": sorted(tables_read(sql))}
        if hugeint is not None and path.parent.name in LAYERS and path.stem in hugeint:
            entry["hugeint"] = hugeint[path.stem]
        files[path.relative_to(SQL_DIR).as_posix()] = entry
    return {"about": "What each SQL file reads, from DuckDB's parse of it, and which columns of each model "
                     "DuckDB makes HUGEINT (the build casts them to BIGINT as it makes the table); written by "
                     "`make manifest` (python -m pipeline.tools.manifest), proved equal to DuckDB by "
                     "tests/build/test_layers.py.",
            "files": files}


def manifest_text(hugeint: dict[str, list[str]]) -> str:
    return json.dumps(parsed_manifest(hugeint), indent=1, sort_keys=True) + "\n"


def _read(layer: str, path: Path) -> Model:
    sql = path.read_text(encoding="utf-8")
    return Model(path.stem, layer, path, sql, reads(sql), casts(sql))


def layer_models(layer: str) -> list[Model]:
    """A layer's models in the order they can be built: macro files first, then each model
    after the models of its layer that it reads."""
    if layer == "rules":
        return []
    models = [_read(layer, p) for p in sorted((SQL_DIR / layer).glob("*.sql"))]
    macros = [m for m in models if m.is_macros]
    todo = {m.name: m for m in models if not m.is_macros}
    ordered: list[Model] = []
    done: set[str] = set()
    while todo:
        ready = [m for m in todo.values() if not (m.reads & (todo.keys() - {m.name}))]
        if not ready:
            raise RuntimeError(f"the models of sql/{layer} read each other in a circle: {', '.join(sorted(todo))}")
        for m in sorted(ready, key=lambda m: m.name):
            ordered.append(m)
            done.add(m.name)
            del todo[m.name]
    return macros + ordered


def all_models(findings: Model | None = None) -> list[Model]:
    """Every model of every layer, in build order; `findings` (made from the rules) is placed
    where the rules layer stands."""
    out = [m for layer in LAYERS for m in layer_models(layer)]
    if findings is not None:
        at = next((i for i, m in enumerate(out) if LAYERS.index(m.layer) > LAYERS.index("rules")), len(out))
        out.insert(at, findings)
    return out


def check_layers(models: list[Model]) -> list[str]:
    """Every read of `models` (in build order) that breaks the rule that layers only look
    back, as sentences; an empty list when there is none."""
    problems: list[str] = []
    made_by: dict[str, str] = {}
    position: dict[str, int] = {}
    for i, m in enumerate(models):
        if not m.is_macros:
            made_by[m.name] = m.layer
            position[m.name] = i
    for i, m in enumerate(models):
        rank = LAYERS.index(m.layer)
        where = f"sql/{m.layer}/{m.path.name}" if m.path.is_file() else f"the {m.name} table"
        for table in sorted(m.reads):
            if m.layer == "staging" and not m.is_macros:
                if table not in SOURCE_TABLES:
                    problems.append(f"{where} reads {table}: staging reads only the register tables")
                continue
            if table in SOURCE_TABLES:
                problems.append(f"{where} reads the source table {table}: "
                                "only staging reads the registers and what was loaded")
                continue
            if table not in made_by:
                problems.append(f"{where} reads {table}, which no model makes")
                continue
            other = LAYERS.index(made_by[table])
            if other > rank or (other == rank and position[table] > i):
                problems.append(f"{where} reads {table}, made later by {made_by[table]}/{table}")
    return problems

