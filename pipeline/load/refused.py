"""The rows of a load's rejected files, kept while the load goes on, so that a file referring to
them is held back with one line that says why (ingest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb

from pipeline.core.errors import Problem
from pipeline.load import cells
from pipeline.load.bundle import Read, Source
from pipeline.load.results import FileResult


@dataclass
class Refused:
    """The keys of the rows of this load's rejected files, by register, so that a file referring to
    them is not loaded either and says so once, instead of once per row ("unknown case_id")."""

    by_register: dict[str, tuple[list[str], set[str]]] = field(default_factory=dict)
    # registers with a rejected file whose rows could not be read at all (not UTF-8, a heading
    # misspelt): which keys it held is not known, so any key not already held may have been its
    unread: set[str] = field(default_factory=set)

    def add(self, con: duckdb.DuckDBPyConnection, src: Source, read: Read) -> None:
        reg = src.register
        if len(reg.key) != 1:
            return
        labels, keys = self.by_register.setdefault(reg.name, ([], set()))
        labels.append(src.label)
        if not read.problems:
            cells.load(con, read)
        if read.problems:
            self.unread.add(reg.name)
            return
        keys.update(v for v in (str(x).strip() for x in cells.values(con, reg.key[0])) if v)

    def explains(self, src: Source, problem: Problem) -> bool:
        """Whether a problem of a held-back file is its naming a row of a rejected file (the line
        that says so stands for all of them)."""
        for col in src.register.columns:
            if not col.refers_to or col.name != problem.column:
                continue
            target = col.refers_to.split(".")[0]
            if target in self.by_register:
                value = str(problem.value or "").strip()
                return target in self.unread or value in self.by_register[target][1]
        return False

    def blocks(self, con: duckdb.DuckDBPyConnection, src: Source, read: Read) -> FileResult | None:
        """A rejection in one line when the file names rows only a rejected file of this load holds."""
        if read.problems:
            return None
        if con.execute("SELECT 1 FROM loads WHERE sha256 = ?", [read.sha256]).fetchone():
            return None                                  # already held: skipped as usual
        for col in src.register.columns:
            if not col.refers_to:
                continue
            target, tcol = col.refers_to.split(".")
            if target not in self.by_register:
                continue
            cells.load(con, read)
            if read.problems:
                return None
            labels, keys = self.by_register[target]
            named = {v for v in (str(x).strip() for x in cells.values(con, col.name)) if v}
            if target not in self.unread:
                named &= keys
            held = {r[0] for r in con.execute(
                f'SELECT DISTINCT CAST("{tcol}" AS VARCHAR) FROM {target} WHERE CAST("{tcol}" AS VARCHAR) IN '
                f'(SELECT unnest(?::VARCHAR[]))', [sorted(named)]).fetchall()} if named else set()
            missing = sorted(named - held)
            if not missing:
                continue
            shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
            were = "was" if len(labels) == 1 else "were"
            why = (f"rows ({col.name} {shown}) that may be in {' and '.join(labels)}, which {were} rejected "
                   "before its rows could be read" if target in self.unread else
                   f"rows of {' and '.join(labels)} ({col.name} {shown}), which {were} rejected")
            return FileResult(src.label, src.register.name, "rejected", problems=[Problem(
                src.label, None, None, None, f"not loaded: it refers to {why}; send this file again with the corrected one")])
        return None
