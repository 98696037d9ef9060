"""Registers that change: a row sent again is a new version of its key, never an overwrite.

A register or ledger row whose key is already held with other values is accepted as a
new version of that key when its `correction_note` says why; without a note the file is
rejected, and the message says how to correct a row. `void = yes` (with a note) strikes a
row out: the new version is kept, and the computations leave a struck-out key out. A key
struck out may be sent again (with a note) to restore it. A row identical to the current
version adds nothing. Every version is kept with the file, row and load it came from; the
current version of a key is the one loaded last (`_version`, 1, 2, ...).

Reference tables are not corrected this way: a key held with other values is refused.

These checks run on the typed rows of one file (the temporary table `_typed`) before
anything of the file is written (ingest.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.core.errors import Problem
from pipeline.core.registers import REGISTERS, Register
from pipeline.load.schema import bundle_place, bundle_text, current_rows

MAX_LISTED = 200


@dataclass
class Voids:
    """Keys struck out by the files of one load (a bundle ingested in one run), by register;
    a struck-out row's dependents may be struck out by another file of the same load."""

    planned: dict[str, set[tuple]] = field(default_factory=dict)
    done: list[tuple[Register, str]] = field(default_factory=list)   # (register, label of the file)

    def planned_by_others(self, register: str, label: str) -> set[tuple]:
        return {k for (lbl, k) in self.planned.get(register, set()) if lbl != label}

    def plan(self, register: str, label: str, keys: list[tuple]) -> None:
        if not keys:
            return
        self.planned.setdefault(register, set()).update((label, tuple(k)) for k in keys)


def _on(reg: Register, left: str = "n", right: str = "o") -> str:
    return " AND ".join(f'{left}."{k}" = {right}."{k}"' for k in reg.key)


def _same(reg: Register, left: str = "n", right: str = "o") -> str:
    names = reg.data_names if reg.correctable else reg.names
    return " AND ".join(f'{left}."{c}" IS NOT DISTINCT FROM {right}."{c}"' for c in names)


def _held(reg: Register) -> str:
    """The current rows of the keys the file's rows (`_typed`) also have: the only ones they can meet."""
    match = " AND ".join(f'n."{k}" = _held."{k}"' for k in reg.key)
    return current_rows(reg, keys_where=f"EXISTS (SELECT 1 FROM _typed n WHERE {match})")


def _key_text(reg: Register, alias: str) -> str:
    return " || ' / ' || ".join(f'CAST({alias}."{k}" AS VARCHAR)' for k in reg.key)


def holds_keys(con, reg: Register) -> bool:
    """Whether the register holds a key of the file's rows at all (most files bring only new keys,
    and then neither conflicts nor insert_sql need look at the rows held)."""
    if len(reg.key) == 1:
        k = reg.key[0]
        test = f'h."{k}" IN (SELECT n."{k}" FROM _typed n)'
    else:
        test = f"EXISTS (SELECT 1 FROM _typed n WHERE {_on(reg, 'n', 'h')})"
    return con.execute(f"SELECT EXISTS (SELECT 1 FROM {reg.table} h WHERE {test})").fetchone()[0]


def conflicts(con, reg: Register, label: str, held: bool = True, run_from: int | None = None,
              struck: bool = True) -> list[Problem]:
    """Keys already held with other values: a new version when the row has a correction note,
    else a problem saying how to correct; a struck-out row with no key held to strike out.
    `held` False: the register holds none of the file's keys (holds_keys). `run_from`: the first
    load id of this ingest (a correction loaded by it was read before this file). `struck` False:
    no row of the file strikes out its key (cells.Typed.voids)."""
    names = reg.data_names if reg.correctable else reg.names
    diffs = ", ".join(f"""CASE WHEN n."{c}" IS DISTINCT FROM o."{c}" THEN '{c}' END""" for c in names)
    noted = "n.correction_note IS NOT NULL" if reg.correctable else "false"
    this_run = f"o._load_id >= {int(run_from)}" if run_from is not None else "false"
    held_noted = f"o.correction_note IS NOT NULL AND {this_run}" if reg.correctable else "false"
    rows = con.execute(f"""
        SELECT n._row, o._file, o._row, list_filter([{diffs}], lambda x: x IS NOT NULL), {_key_text(reg, 'n')},
               {held_noted}
        FROM _typed n JOIN {_held(reg)} o ON {_on(reg)}
        WHERE NOT ({_same(reg)}) AND NOT ({noted})
        ORDER BY n._row LIMIT {MAX_LISTED}""").fetchall() if held else []
    keyname = " + ".join(reg.key)
    out = []
    for row, ofile, orow, cols, key, ocorrects in rows:
        if ocorrects and ofile < label:
            # a correction of this ingest read before what it corrects: files of a register are read by name
            how = (f"That row is a correction (it has a correction_note) read before this file, because files of "
                   f"a register are read in the order of their names: rename {ofile} so that it sorts after "
                   f"{label} (for example {label.rsplit('.', 1)[0]}_corrections.csv)")
        elif reg.correctable:
            how = ("To correct it, send the row again with a correction_note saying why (and void = yes to "
                   "strike it out)")
        else:
            how = "Correct one of the two files"
        out.append(Problem(label, row, keyname, key,
                           f"was already loaded from {ofile} (row {orow}) with different values in "
                           f"{', '.join(cols)}; a {keyname} must mean one thing. {how}"))
    if reg.correctable and run_from is not None and held:
        # a row corrected by two files of one load: nothing in the rows says which is the later
        for row, ofile, key in con.execute(f"""
                SELECT n._row, o._file, {_key_text(reg, 'n')}
                FROM _typed n JOIN {_held(reg)} o ON {_on(reg)}
                WHERE n.correction_note IS NOT NULL AND o.correction_note IS NOT NULL AND o._load_id >= {int(run_from)}
                  AND NOT ({_same(reg)})
                ORDER BY n._row LIMIT {MAX_LISTED}""").fetchall():
            out.append(Problem(label, row, keyname, key,
                               f"is corrected by this file and by {ofile}, both loaded now, with different values; "
                               "nothing in the rows says which is the later: send one correction of the row"))
    if reg.correctable and struck:
        for row, key in con.execute(f"""
                SELECT n._row, {_key_text(reg, 'n')} FROM _typed n
                WHERE n.void AND NOT EXISTS (SELECT 1 FROM {reg.table} o WHERE {_on(reg)})
                ORDER BY n._row LIMIT {MAX_LISTED}""").fetchall():
            out.append(Problem(label, row, "void", "yes",
                               f"strikes out {keyname} {key}, which was never loaded: there is nothing to "
                               "withdraw (leave the row out instead)"))
    return out


def dependents(reg: Register) -> list[tuple[Register, str, str]]:
    """(register, its column, the column of `reg` it names) for every column that refers to `reg`."""
    out = []
    for other in REGISTERS:
        for c in other.columns:
            if c.refers_to and c.refers_to.split(".")[0] == reg.table:
                out.append((other, c.name, c.refers_to.split(".")[1]))
    return out


def void_orphans(con, reg: Register, label: str, voids: Voids, struck: bool = True) -> list[Problem]:
    """Rows this file strikes out that current rows of other registers still refer to, unless
    another file of the same load strikes those out too. `struck` False: no row of the file
    strikes out its key (cells.Typed.voids)."""
    if not reg.correctable or not struck:
        return []
    out = []
    for other, col, target in dependents(reg):
        if not other.correctable:
            continue
        spared = voids.planned_by_others(other.name, label)
        rows = con.execute(f"""
            SELECT n._row, CAST(n."{target}" AS VARCHAR), r._file, r._row, [{", ".join(f'CAST(r."{k}" AS VARCHAR)' for k in other.key)}]
            FROM _typed n JOIN {current_rows(other)} r ON r."{col}" = n."{target}"
            WHERE n.void AND NOT r.void
            ORDER BY n._row, r._file, r._row""").fetchall()
        for row, value, rfile, rrow, rkey in rows:
            if tuple(rkey) in spared:
                continue
            out.append(Problem(label, row, "void", "yes",
                               f"strikes out {target} {value}, but {other.name} {' / '.join(rkey)} ({rfile} row {rrow}) "
                               f"still refers to it; strike that row out too, in the same load, or correct it first"))
    return out[:MAX_LISTED]


def left_orphaned(con, voids: Voids) -> list[str]:
    """After a load: rows struck out in it that current rows still refer to (the file that was to
    strike those out was rejected), as sentences."""
    out = []
    for reg, label in voids.done:
        for other, col, target in dependents(reg):
            if not other.correctable:
                continue
            for value, rfile, rrow in con.execute(f"""
                    SELECT DISTINCT CAST(v."{target}" AS VARCHAR), r._file, r._row
                    FROM {current_rows(reg)} v JOIN {current_rows(other)} r ON r."{col}" = v."{target}"
                    WHERE v.void AND v._file = ? AND NOT r.void ORDER BY 2, 3""", [label]).fetchall():
                out.append(f"{label} struck out {target} {value}, but the {other.name} row of {rfile} row {rrow} "
                           "still refers to it (the file that was to strike it out was rejected): correct that file "
                           "and load it again")
    return out


def insert_sql(reg: Register, held: bool = True) -> str:
    """INSERT of the file's rows that add something: new keys, and (for a register) new versions
    of held keys; parameters: the file's label and its load id. `held` False: the register holds
    none of the file's keys (holds_keys), so every row is new, in its first version."""
    cols = ", ".join(f'"{c}"' for c in reg.names)
    ncols = ", ".join(f'n."{c}"' for c in reg.names)
    if not held:
        version = (", _version", ", 1") if reg.correctable else ("", "")
        return (f"INSERT INTO {reg.table} ({cols}, _extra, _file, _row, _load_id{version[0]}) "
                f"SELECT {ncols}, n._extra, ?, n._row, ?{version[1]} FROM _typed n")
    if not reg.correctable:
        return (f"INSERT INTO {reg.table} ({cols}, _extra, _file, _row, _load_id) "
                f"SELECT {ncols}, n._extra, ?, n._row, ? FROM _typed n "
                f"WHERE NOT EXISTS (SELECT 1 FROM {reg.table} o WHERE {_on(reg)})")
    return (f"INSERT INTO {reg.table} ({cols}, _extra, _file, _row, _load_id, _version) "
            f"SELECT {ncols}, n._extra, ?, n._row, ?, coalesce(o._version, 0) + 1 "
            f"FROM _typed n LEFT JOIN {_held(reg)} o ON {_on(reg)} "
            f"WHERE o._version IS NULL OR NOT ({_same(reg)})")


def voided_keys(con, reg: Register) -> list[tuple]:
    """The keys the file's rows strike out."""
    if not reg.correctable:
        return []
    keys = ", ".join(f'CAST("{k}" AS VARCHAR)' for k in reg.key)
    return [tuple(r) for r in con.execute(f"SELECT {keys} FROM _typed WHERE void").fetchall()]


def edited_in_place(con, reg: Register, label: str, bundle, home=None) -> tuple[list[Problem], set[int]]:
    """When a file of this name was loaded before from the same bundle (the same folder, or the one
    at the same place beside the database in `home`: the office folder copied) with other content, the
    likeliest cause of its rejection, first: it was edited in place. Returns that problem, naming
    the rows that differ from what the file held when it was loaded, and the rows that do not (a
    row since corrected by another file is not one the clerk touched: its conflict is not listed)."""
    first = con.execute("SELECT min(loaded_at) FROM loads WHERE file = ? AND (bundle = ? OR bundle_at = ?)",
                        [label, bundle_text(bundle), bundle_place(bundle, home)]).fetchone()[0]
    if first is None:
        return [], set()
    as_loaded = (f"SELECT n._row FROM _typed n WHERE EXISTS (SELECT 1 FROM {reg.table} o "
                 f"WHERE o._file = ? AND {_on(reg)} AND {_same(reg)})")
    same = {r[0] for r in con.execute(as_loaded, [label]).fetchall()}
    changed = [r[0] for r in con.execute("SELECT _row FROM _typed ORDER BY _row").fetchall() if r[0] not in same]
    shown = ", ".join(str(r) for r in changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
    where = f", in row{'s' if len(changed) > 1 else ''} {shown}" if changed else ""
    stem = label.rsplit(".", 1)[0]
    return [Problem(label, None, None, None,
                    f"was loaded on {first:%Y-%m-%d %H:%M} and has changed since{where}: a file once loaded is not "
                    "edited. Put it back as it was loaded, and put the corrected rows in a new file of the register "
                    f"whose name sorts after it (for example {stem}_corrections.csv), each with a correction_note "
                    "saying why (README, 'Correcting a register row')")], same
