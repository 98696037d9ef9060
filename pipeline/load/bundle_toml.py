"""bundle.toml: what a bundle says about itself (optional, at the bundle's root).

    as_of = 2026-10-31          # the date the registers were written up to
    district = "Mysuru"
    prepared_by = "Ramesh Gowda, pound keeper"

`pound run` draws the accounts up to `as_of` when --as-of is not given. A key the
file does not know, a value of the wrong kind, or text that is not TOML rejects
the bundle with one line naming the file, the line and what was expected.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import InputRejected, Problem

NAME = "bundle.toml"
KEYS = {"as_of": "a date written YYYY-MM-DD", "district": "text", "prepared_by": "text"}


@dataclass(frozen=True)
class BundleInfo:
    as_of: dt.date | None = None
    district: str | None = None
    prepared_by: str | None = None


def _bad(row: int | None, column: str | None, value, why: str) -> InputRejected:
    return InputRejected([Problem(NAME, row, column, None if value is None else str(value), why)])


def _line_of(text: str, key: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line):
            return i
    return None


def read_bundle_info(bundle: Path) -> BundleInfo | None:
    """The bundle's bundle.toml, or None when it has none; InputRejected when it is malformed."""
    path = Path(bundle) / NAME
    if not path.is_file():
        return None
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _bad(None, None, None, "is not UTF-8 text; save it as UTF-8 (see the README)") from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"at line (\d+)", str(exc))
        raise _bad(int(where.group(1)) if where else None, None, None,
                   f"is not valid TOML ({str(exc).split(' (at line')[0]}); write each setting as "
                   "key = value, text in double quotes, e.g. as_of = 2026-10-31 and district = \"Mysuru\"") from None
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        key = unknown[0]
        raise _bad(_line_of(text, key), key, None,
                   f"is not a setting of bundle.toml; it may give {', '.join(KEYS)}")
    as_of = table.get("as_of")
    if as_of is not None:
        if isinstance(as_of, str):
            try:
                as_of = dt.date.fromisoformat(as_of.strip())
            except ValueError:
                as_of = table["as_of"]
        if isinstance(as_of, dt.datetime) or not isinstance(as_of, dt.date):
            raise _bad(_line_of(text, "as_of"), "as_of", table["as_of"], f"is not {KEYS['as_of']}")
    for key in ("district", "prepared_by"):
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise _bad(_line_of(text, key), key, value, "should be text in double quotes, not empty")
    return BundleInfo(as_of, _text(table.get("district")), _text(table.get("prepared_by")))


def _text(value) -> str | None:
    return value.strip() if isinstance(value, str) else None


def bundle_toml(info: BundleInfo) -> str:
    """The text of a bundle.toml (what pound synth writes)."""
    lines = ["# What this bundle says about itself (see the README, 'bundle.toml')."]
    if info.as_of:
        lines.append(f"as_of = {info.as_of.isoformat()}")
    for key in ("district", "prepared_by"):
        value = getattr(info, key)
        if value:
            lines.append(f'{key} = "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "\n".join(lines) + "\n"
