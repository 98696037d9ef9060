"""The rows each file added, as they were loaded: a digest per file (loads.digest), checked by every build.

A register table is written by the load alone (ingest.py, typed.py): a row changed, added or
removed in the database by other means (an UPDATE typed into duckdb) would otherwise reach the
figures without a word, with no file to show for it. At load, the rows a file added (those of
its load_id) are summed up in one digest, in the load's own transaction; a build recomputes every
digest first, from the rows the tables hold, and refuses when one differs, naming the register and
the file (check). The digest is computed here alone, in SQL, the same way at load and at build.

The digest: DIGEST, the rows' count, how many columns were hashed, and the XOR over the rows of
DuckDB's hash() of each row (every column, `_file`, `_row`, `_version` and `_extra` among them).
The order of the rows does not matter, so no sort is needed; rows are told apart by `_row`, so two
cannot cancel out. A column a later version adds to a register table comes last and is NULL in
the rows loaded before: a digest hashes the columns the table had when its file was loaded, so
it is not disturbed. hash() of every column at once is about ten times cheaper than hashing each
row's text (docs/design.md), and a test pins its values (tests/load/test_digests.py): a DuckDB
whose hash() differs must bring a new DIGEST, so that the digests it cannot check are taken afresh
(as for a database loaded before digests, below), not refused.

A database loaded by a version that kept no digests has NULL in loads.digest: its first build
takes the rows as they stand then (settled in the build's transaction) and says so once. A NULL
digest on a load made after one that has a digest was not left by an older version, and is refused.
The digest guards the figures against a shortcut taken in the database, not against someone who
rewrites `loads` as well: the closes' sha256 of every file and `pound verify` are the seal.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

from pipeline.core.errors import PoundError
from pipeline.core.registers import REGISTERS, Register
from pipeline.load import schema

DIGEST = "d1"          # the method; a new one makes the digests of the old taken afresh (settle)


def _columns(reg: Register, catalogue: dict) -> list[str]:
    """The columns of the register's table in the table's order, less _load_id, which the digest is
    grouped by. A column a later version adds comes last (ALTER TABLE ... ADD COLUMN): a digest
    hashes the first n, the columns the table had when its file was loaded."""
    return [c for c, _ in catalogue[reg.table] if c != "_load_id"]


def digests_sql(reg: Register, catalogue: dict, n: int | None = None, where: str = "") -> str:
    """SELECT register, load id, digest of the rows of each load id of the register's table, its
    first `n` columns hashed (default: all)."""
    every = _columns(reg, catalogue)
    columns, later = every[:n], every[len(every[:n]):]
    hashed = f"hash({', '.join(f'{chr(34)}{c}{chr(34)}' for c in columns)})"
    # the rows of a file loaded before a column was added hold nothing in it: a value there is a change
    filled = (" || CASE WHEN bool_or(" + " OR ".join(f'"{c}" IS NOT NULL' for c in later) + ") THEN ':+' ELSE '' END"
              if later else "")
    return (f"SELECT '{reg.name}' AS register, _load_id AS load_id, "
            f"'{DIGEST}:' || count(*) || ':{len(columns)}:' || CAST(bit_xor({hashed}) AS VARCHAR){filled} AS digest "
            f"FROM {reg.table} {where} GROUP BY _load_id")


def _empty(n: int) -> str:
    """The digest of a file that added no rows."""
    return f"{DIGEST}:0:{n}:0"


def _another_method(kept: str) -> bool:
    """A digest taken by another method than DIGEST (a version of pound before or after this one)."""
    return re.fullmatch(r"d[0-9]+:[0-9:]+", kept) is not None and not kept.startswith(f"{DIGEST}:")


def _width(kept: str | None) -> int | None:
    """How many columns a digest of this method hashed (None when it is not one)."""
    found = re.fullmatch(rf"{DIGEST}:[0-9]+:([0-9]+):[0-9]+", kept or "")
    return int(found.group(1)) if found else None


def of_load(con: duckdb.DuckDBPyConnection, reg: Register, load_id: int) -> str:
    """The digest of the rows load `load_id` added to the register's table (in the load's transaction)."""
    catalogue = {reg.table: con.execute(
        "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND table_name = ? ORDER BY column_index", [reg.table]).fetchall()}
    found = con.execute(digests_sql(reg, catalogue, where="WHERE _load_id = ?"), [load_id]).fetchone()
    return found[2] if found else _empty(len(_columns(reg, catalogue)))


def check(con: duckdb.DuckDBPyConnection, db: Path | None = None, bundle: Path | None = None) -> list[str]:
    """Recompute the digest of every file's rows and compare it with the one kept at its load:
    PoundError, one line naming the register and the file, when they differ. Digests missing from
    a database loaded before them are taken now (settled); returns the note saying so, if any."""
    catalogue = schema.catalogue(con)
    regs = {reg.name: reg for reg in REGISTERS if reg.table in catalogue}
    loads = con.execute("SELECT load_id, register, file, loaded_at, digest, "
                        "digest IS NULL AND load_id > (SELECT min(load_id) FROM loads WHERE digest IS NOT NULL) "
                        "FROM loads ORDER BY load_id").fetchall()
    # each register's rows hashed once at its width now, and again at each other width a digest kept
    widths = {(name, len(_columns(reg, catalogue))) for name, reg in regs.items()}
    widths |= {(register, _width(kept)) for _, register, _, _, kept, _ in loads
               if register in regs and _width(kept) is not None and _width(kept) <= len(_columns(regs[register], catalogue))}
    now: dict[tuple, dict[int, str]] = {key: {} for key in widths}
    sql = " UNION ALL ".join(digests_sql(regs[name], catalogue, n) for name, n in sorted(widths))
    for register, load_id, digest in con.execute(sql).fetchall():
        now[(register, int(digest.split(":")[2]))][load_id] = digest
    unsettled, wrong, seen = [], [], set()
    for load_id, register, file, loaded_at, kept, removed in loads:
        seen.add((register, load_id))
        full = len(_columns(regs[register], catalogue)) if register in regs else 0
        n = _width(kept) if _width(kept) is not None else full
        digest = now.get((register, n), {}).get(load_id, _empty(n))
        if removed:
            wrong.append(f"the digest of the rows of {register} loaded from {file} was removed from the database")
        elif kept is None or _another_method(kept):
            unsettled.append((load_id, digest))
        elif kept != digest:
            wrong.append(f"the rows of {register} loaded from {file} on {loaded_at:%Y-%m-%d %H:%M} are not as "
                         "they were loaded")
    for name, reg in regs.items():
        for load_id in sorted(set(now[(name, len(_columns(reg, catalogue)))]) - {i for r, i in seen if r == name}):
            wrong.append(f"the database holds rows of {name} that no file loaded (load id {load_id})")
    if wrong:
        more = f" (and {len(wrong) - 1} more file(s))" if len(wrong) > 1 else ""
        where = f" {db}" if db else ""
        again = f"pound run {bundle} --out FOLDER" + (f" --db {db}" if db else "") if bundle else \
            "pound run BUNDLE --out FOLDER"
        raise PoundError(f"the database{where} was changed outside pound: {wrong[0]}{more}, and the figures would "
                         f"rest on rows no file holds. Make it afresh from its bundle ({again}); a row is corrected by "
                         "a file of corrections (README, 'Correcting a register row')")
    if not unsettled:
        return []
    con.executemany("UPDATE loads SET digest = ? WHERE load_id = ?", [(d, i) for i, d in unsettled])
    return [f"note: {len(unsettled)} file(s) were loaded by an earlier version of pound, which kept no digest of "
            "their rows: their rows are taken as they stand now, and a later change made to them outside pound "
            "will be refused"]
