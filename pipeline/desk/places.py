"""Where the desk works: the bundle, the database, and the folder its months' reviews go into."""

from __future__ import annotations

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
