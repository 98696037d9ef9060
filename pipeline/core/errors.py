"""Errors a user can act on, kept apart from bugs.

PoundError and its subclasses carry a message meant for the person at the
terminal; the CLI prints it without a traceback. Anything else is a defect and
is reported as one line unless --debug is given.
"""

from __future__ import annotations

from dataclasses import dataclass


class PoundError(Exception):
    """A problem the user can fix (bad path, bad option). Exit status 1."""


class DatabaseBusy(PoundError):
    """The database stayed in use by another step or program for as long as the caller would wait.
    `holder` names it when pound knows who ("pound build (pid 4120)"), else None. Exit status 1."""

    def __init__(self, db, holder: str | None, waited: float):
        self.db, self.holder, self.waited = db, holder, waited
        who = holder or "another program (another 'pound' command?)"
        super().__init__(f"database {db} is in use by {who} "
                         f"and stayed so for {waited:g} s; run this again when it has finished, give a longer "
                         "--wait SECONDS, or use another --db")


class StaleFigures(PoundError):
    """The figures were built before files loaded since: a close refuses them. Exit status 2."""


@dataclass(frozen=True)
class Problem:
    """One reason a file was rejected: where it is and what was expected."""

    file: str
    row: int | None          # spreadsheet row number (the header is row 1)
    column: str | None
    value: str | None
    message: str             # plain words: what is wrong and what was expected

    def render(self) -> str:
        where = [self.file]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.said()}"

    def said(self) -> str:
        """What is wrong, with the value met, without where (a table's row says where)."""
        return f"{shown(self.value)} {self.message}" if self.value is not None else self.message


def shown(value: str, limit: int = 60) -> str:
    """A cell value quoted for a message, cut if very long."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "'" + text.replace("\n", "\\n") + "'"


class InputRejected(Exception):
    """One or more files were rejected; nothing from them was loaded. Exit status 2."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        files = sorted({p.file for p in problems})
        super().__init__(f"{len(files)} file(s) rejected")
