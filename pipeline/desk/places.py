"""Where the desk works: the bundle, the database, and the folder its months' reviews go into."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pipeline import steps


@dataclass(frozen=True)
class Places:
    bundle: Path
    db: Path
    out: Path                      # month_<month>/ (as pound month writes it) and its papers/ are written here
    papers_lang: str | None = None  # --papers-lang: en, kn or both; None: the build's parameter papers_lang

    def month(self, month: str) -> Path:
        """The month's review, and the build's exports in its exports/ (steps.month's layout)."""
        return steps.folder_of(self.out, month)

    def papers(self, month: str) -> Path:
        return self.month(month) / "papers"

    def to_write(self, folder: Path) -> Path:
        """`folder` (under `out`), or PoundError when it or a folder between it and `out` is a link:
        the desk writes into the folders it makes, never through a link to somewhere else (as it
        serves no file through one: offered.py)."""
        from pipeline.core.errors import PoundError

        out = Path(self.out)
        rel = Path(folder).relative_to(out)
        at = out
        for part in rel.parts:
            at = at / part
            if at.is_symlink():
                raise PoundError(f"{at} is a link to {os.readlink(at)}, not a folder of the desk's own; the desk "
                                 "writes nothing through a link: remove the link, then try again")
        return Path(folder)
