"""What a load says of each file and of the whole bundle (ingest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.core.errors import Problem


@dataclass
class FileResult:
    label: str
    register: str
    status: str                      # loaded | no_new_rows | skipped | rejected
    rows: int = 0
    new_rows: int = 0
    problems: list[Problem] = field(default_factory=list)
    more: int = 0                    # problems beyond those listed
    note: str = ""


@dataclass
class IngestResult:
    files: list[FileResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def rejected(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "rejected"]

    @property
    def problems(self) -> list[Problem]:
        return [p for f in self.rejected for p in f.problems]
