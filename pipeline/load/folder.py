"""The files of a bundle's folder, and the one line for a folder that is not a bundle at all."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.core.errors import InputRejected, Problem


class NotABundle(InputRejected):
    """A folder with none of reference/, registers/, ledgers/ and no register sheet in a workbook (an
    empty folder, a project's docs/): one line saying what a bundle is, rather than a line for every
    file passed over and every reference table missing. Exit status 2, as for any rejected input."""

    def __init__(self, where):
        super().__init__([Problem(str(where), None, None, None, (
            "is not a bundle: a bundle is a folder (or a .zip of one) holding reference/, registers/ and ledgers/ "
            "(CSV files, or sheets of .xlsx workbooks); data/sample is one, and `pound template --bundle BUNDLE "
            "--out registers_2026-11.xlsx` writes the workbook of the registers to fill in"))])


def bundle_files(bundle: Path) -> list[Path]:
    """The bundle's files, sorted; hidden files are passed over and hidden folders (.git, .venv) not
    even opened, so that a project's folder given by mistake is answered at once."""
    out = []
    for top, dirs, files in os.walk(bundle, followlinks=True):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        out += [Path(top) / f for f in files if not f.startswith(".")]
    return sorted(p for p in out if p.is_file())
