"""Close a month (seal what the District Magistrate signs into BUNDLE/closes/), and verify a close."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Closed:
    """A close made: its folder, the figures it sealed (the page signed) as lines."""
    folder: Path
    month: str
    district: str | None
    record: dict
    lines: list[str] = field(default_factory=list)     # what was sealed, and where the page to sign is (stderr)


@dataclass
class Verified:
    """A close checked: intact, or the lines naming what differs."""
    folder: Path
    intact: bool
    with_bundle: bool
    lines: list[str] = field(default_factory=list)


def close(db: Path, bundle: Path, month: str, by: str, district: str | None = None, note: str | None = None,
          reopen: str | None = None) -> Closed:
    """Seal the month into BUNDLE/closes/; PoundError (nothing written) when it may not be closed."""
    from pipeline.close.seal import close_month, signed_lines
    from pipeline.load.closes import CLOSE_FILE

    folder = close_month(Path(db), Path(bundle), month, by, district, note, reopen)
    record = json.loads((folder / CLOSE_FILE).read_text(encoding="utf-8"))
    return Closed(folder, month, record.get("district"), record, signed_lines(record))


def verify(folder: Path, bundle: Path | None = None) -> Verified:
    """Check the close folder against its close.json; with `bundle`, also check the input files as
    they stand against the sealed hashes and rebuild the month's figures from them."""
    from pipeline.close.verify import check_files, rebuild

    folder = Path(folder)
    record, verdict = check_files(folder)
    if bundle is not None and not (verdict.altered or verdict.missing or verdict.added):
        rebuild(record, Path(bundle), verdict)
    return Verified(folder, verdict.intact, bundle is not None, verdict.lines())
