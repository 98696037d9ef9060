"""The workbooks the office fills in, made from the desk as `pound template` writes them: a
keeper's workbook (a pound and a month: the cases still in the pound when the month began, with
the accounts, and what is due) and the ledger workbooks (the local fund's and the DM deposit
account's). They are written into OUT/month_<MONTH>/workbooks/ and handed out from there
(offered.py, kind "workbooks")."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.desk.places import Places

LEDGERS = ("local_fund", "dm_deposit")
POUND_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def folder(places: Places, month: str) -> Path:
    return places.to_write(places.month(month) / "workbooks")


def pounds(places: Places) -> list[str]:
    """The pounds of the bundle's reference/pounds.csv (the ids a keeper's workbook may be made for)."""
    p = places.bundle / "reference" / "pounds.csv"
    if not p.is_file():
        return []
    try:
        with open(p, encoding="utf-8-sig", newline="") as f:
            return sorted({(r.get("pound_id") or "").strip() for r in csv.DictReader(f)} - {""})
    except (OSError, csv.Error, UnicodeDecodeError):
        return []


def keeper(places: Places, month: str, pound: str | None) -> list[Path]:
    from pipeline.outputs.template import file_name, write_template

    if pound not in pounds(places) or not POUND_ID.fullmatch(pound or ""):
        raise PoundError(f"{str(pound)[:40]!r} is not a pound of the bundle's reference/pounds.csv: choose one")
    out = folder(places, month)
    out.mkdir(parents=True, exist_ok=True)
    db = places.db if places.db.is_file() else None
    return [write_template(places.bundle, out / file_name(month, pound), pound, month, db, None, None)]


def ledgers(places: Places, month: str) -> list[Path]:
    from pipeline.outputs.template import ledger_file_name, write_template

    out = folder(places, month)
    out.mkdir(parents=True, exist_ok=True)
    return [write_template(places.bundle, out / ledger_file_name(ledger, month), None, month, None, ledger, None)
            for ledger in LEDGERS]
