"""Every finished table, and the registers as loaded, written for other tools (`pound export`).

Parquet keeps DuckDB's own types: money stays integer paise (BIGINT), dates stay DATE, yes/no
stays BOOLEAN, so pandas, R (arrow) or another DuckDB reads exactly what the accounts hold.
CSV writes the same values as text: paise as whole numbers (not rupees, unlike the exports of
`pound run`, which are for reading), dates ISO, a blank (NULL) as an empty field and an empty
text as "". The database is only read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.build.models import LAYERS, REGISTER_TABLES, layer_models
from pipeline.core.errors import PoundError

FORMATS = ("parquet", "csv")
FINISHED_LAYERS = ("accounts", "rules", "reconcile", "marts")   # what the analysts read; not staging, intermediate
SOURCE = ("loads", "parameters")                                # what was loaded, and the readings in force
MARK = "pound_export.txt"       # names a folder this command wrote, so that it may write there again


@dataclass(frozen=True)
class Table:
    name: str
    folder: str         # "" for a finished table, "registers" for a register as loaded


def finished_tables() -> list[str]:
    """The finished models, in build order (the rules are stacked into the one table `findings`)."""
    names = []
    for layer in LAYERS:
        if layer in FINISHED_LAYERS:
            names += ["findings"] if layer == "rules" else [m.name for m in layer_models(layer) if not m.is_macros]
    return names


def tables_to_export(con: duckdb.DuckDBPyConnection) -> list[Table]:
    have = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
    finished = [Table(t, "") for t in [*finished_tables(), *SOURCE] if t in have]
    registers = [Table(t, "registers") for t in sorted(REGISTER_TABLES) if t in have]
    return finished + registers


def _sql_path(path: Path) -> str:
    return str(path).replace("'", "''")


def export_tables(con: duckdb.DuckDBPyConnection, out: Path, fmt: str = "parquet") -> list[Path]:
    """Write each table of tables_to_export() as OUT/<table>.<fmt> (registers under OUT/registers/)."""
    if fmt not in FORMATS:
        raise PoundError(f"--format {fmt} is not one of {', '.join(FORMATS)}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).exists():
        # the exports of `pound run` have the same names, with money in rupees: never mix the two
        raise PoundError(f"--out {out} holds other files (the exports of 'pound run'?); give an empty or new folder")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARK).write_text(f"Written by 'pound export --format {fmt}': every finished table, and the registers "
                            "as loaded under registers/. Money is integer paise; dates are ISO dates.\n",
                            encoding="utf-8")
    options = "FORMAT parquet, COMPRESSION zstd" if fmt == "parquet" else "FORMAT csv, HEADER, DELIMITER ','"
    written = []
    for table in tables_to_export(con):
        folder = out / table.folder
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{table.name}.{fmt}"
        con.execute(f'COPY (SELECT * FROM "{table.name}") TO \'{_sql_path(path)}\' ({options})')
        written.append(path)
    return written
