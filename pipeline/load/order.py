"""The order a load takes a bundle's files in, and the rows its files strike out, planned before
any file is loaded (ingest.py): within a register, the files that correct rows after those that
do not; the files that strike out rows other registers refer to after every other file.
"""

from __future__ import annotations

import csv

import duckdb

from pipeline.load import cells, versions
from pipeline.load.bundle import Read, Source, read_source
from pipeline.load.values import TRUE_WORDS


def corrections_last(sources: list[Source]) -> list[Source]:
    """The load order with, within each register, the files that correct rows (a correction_note
    written on any row) after those that do not, whatever the files are called: a correction then
    always finds the row it corrects held, and supersedes it. Two corrections of one row in one
    load are refused (versions.twice_corrected)."""
    by_register: dict[str, list[Source]] = {}
    for s in sources:
        by_register.setdefault(s.register.name, []).append(s)
    late = {s.label for mine in by_register.values() if len(mine) > 1 and mine[0].register.correctable
            for s in mine if _corrects(s)}
    order = {name: i for i, name in enumerate(by_register)}
    return sorted(sources, key=lambda s: (order[s.register.name], s.label in late))


def _corrects(src: Source) -> bool:
    """Whether any row of the file has a correction_note (a quick look at the cells as text)."""
    try:
        if src.sheet is None:
            with src.path.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
                rows = csv.reader(fh)
                return _noted(next(rows, []), rows)
        from openpyxl import load_workbook

        from pipeline.load.sheets import MAX_SHEET_COLUMNS, MAX_SHEET_ROWS

        wb = load_workbook(src.path, read_only=True, data_only=True)
        try:
            ws = wb[src.sheet]
            ws.reset_dimensions()        # each row as long as its own cells, not the size the sheet declares
            header = next(ws.iter_rows(values_only=True, max_col=MAX_SHEET_COLUMNS), ())
            names = [str(h or "").strip().lower() for h in header]
            if "correction_note" not in names:
                return False
            at = names.index("correction_note")
            # no further down or across than a register's sheet goes: a sheet past either is refused
            # by the read proper (sheets.rows_of), and its order does not matter
            for r in ws.iter_rows(min_row=2, max_row=MAX_SHEET_ROWS, values_only=True):
                if len(r) > MAX_SHEET_COLUMNS:
                    return False
                if len(r) > at and str(r[at] or "").strip():
                    return True
            return False
        finally:
            wb.close()
    except (OSError, KeyError, ValueError, csv.Error):
        return False                     # the read proper says what is wrong with the file


def _noted(header, rows) -> bool:
    names = [str(h or "").strip().lower() for h in header]
    if "correction_note" not in names:
        return False
    at = names.index("correction_note")
    return any(len(r) > at and str(r[at] or "").strip() for r in rows)


def plan_voids(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> tuple[dict[str, Read], versions.Voids]:
    """The keys that the files of this load strike out (void = yes), read before any is loaded,
    so that a row and the rows that refer to it may be struck out by two files of one load.
    The keys of a register that no other register refers to matter only when a file strikes out
    rows that others refer to; they are read only then."""
    voids = versions.Voids()
    reads: dict[str, Read] = {}
    may = [s for s in sources if s.register.correctable and _may_void(s)]
    referred = [s for s in may if versions.dependents(s.register)]
    for src in referred:
        _plan(con, src, reads, voids)
    if voids.planned:
        for src in may:
            if src not in referred:
                _plan(con, src, reads, voids)
    return reads, voids


def _plan(con: duckdb.DuckDBPyConnection, src: Source, reads: dict[str, Read], voids: versions.Voids) -> None:
    read = reads[src.label] = read_source(src)
    if read.problems:
        return
    key = list(src.register.key)
    rows = cells.struck_rows(con, read, key) if read.plain is not None else None
    if rows is None:
        if read.plain is not None:            # DuckDB cannot read it as it is: read in Python
            read = reads[src.label] = read_source(src, in_python=True)
            if read.problems:
                return
        rows = read.frame[[*key, "void"]].itertuples(index=False, name=None)
    # (key cells..., void cell): the keys of the rows whose void cell says yes
    keys = [tuple(str(v).strip() for v in row[:-1]) for row in rows if str(row[-1]).strip().lower() in TRUE_WORDS]
    voids.plan(src.register.name, src.label, keys)


def voids_last(sources: list[Source], voids: versions.Voids) -> list[Source]:
    """The load order, with the files that strike out rows other registers refer to (cases,
    deposits) moved after every other file, so that the rows referring to them are held, and may
    be struck out too, before they are. The files of one register keep their order: from the first
    of a register's files that strikes a row out, that file and those after it move together."""
    late: list[Source] = []
    for reg_name, struck in voids.planned.items():
        reg = next(s.register for s in sources if s.register.name == reg_name)
        if not versions.dependents(reg):
            continue
        mine = [s for s in sources if s.register.name == reg_name]
        first = next((i for i, s in enumerate(mine) if any(lbl == s.label for lbl, _ in struck)), None)
        if first is not None:
            late += mine[first:]
    return [s for s in sources if s not in late] + late


def _may_void(src: Source) -> bool:
    """Whether a file has a void column (a CSV file's header is read; a workbook sheet is read whole)."""
    if src.sheet is not None:
        return True
    with src.path.open("rb") as fh:
        head = fh.readline().decode("utf-8", errors="replace").lower()
    return "void" in head
