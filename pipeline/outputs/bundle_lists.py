"""What a keeper's or a ledger's workbook offers in its cells' lists, read from a bundle: pounds,
taluks and classes from its reference files (pounds.csv, rates.csv), local authorities and cases
for a ledger's, the other listed values from the registers' declarations (core/registers.py).
A reference file is read, and refused, as the loader reads it.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.errors import InputRejected, PoundError
from pipeline.core.registers import BY_NAME, ENUM

# The registers a pound keeps, in the order a case meets them.
SHEETS = ("impoundments", "releases", "police_reports", "sales", "complaints", "security_deposits", "removal_orders")
# Columns whose list comes from a reference file: column -> (reference table, its column).
FROM_REFERENCE = {"pound_id": ("pounds", "pound_id"), "animal_class": ("rates", "animal_class"),
                  "taluk": ("pounds", "taluk")}
YES_NO = ("yes", "no")
CASES = "cases"            # the list of cases a case_id of a release, sale ... is chosen from


def pick_lists(bundle: Path, pound: str | None = None, sheets: tuple[str, ...] = SHEETS) -> dict[str, list[str]]:
    """Each list a cell offers, by its name (a column name, or yes_no): pounds and classes from the
    bundle's reference files in their order there, listed values from the registers' declarations.
    `pound` narrows pound_id and taluk to that pound (a pound-keeper's copy)."""
    from pipeline.load.zipped import is_zip, unpacked

    if not bundle.exists():
        raise PoundError(f"bundle folder {bundle} does not exist")
    if not bundle.is_dir() and not is_zip(bundle):
        raise PoundError(f"{bundle} is not a folder or a .zip file; give the bundle whose reference/ the lists "
                         "are to come from")
    with unpacked(bundle) as folder:
        pounds = reference_rows(folder, "pounds")
        rates = reference_rows(folder, "rates")
        if sheets != SHEETS:      # a ledger's: its local authorities, and the cases its entries are for
            authorities = reference_rows(folder, "local_authorities")
            cases = reference_rows(folder, "impoundments", required=False)
    if pound is not None:
        chosen = [r for r in pounds if r["pound_id"] == pound]
        if not chosen:
            import difflib

            meant = difflib.get_close_matches(pound, [r["pound_id"] for r in pounds], 1)
            raise PoundError(f"--pound {pound} is not in the bundle's reference/pounds.csv"
                             + (f"; did you mean {meant[0]}?" if meant else ""))
        pounds = chosen
    lists = {"pound_id": _distinct(r["pound_id"] for r in pounds),
             "animal_class": _distinct(r["animal_class"].lower() for r in rates),
             "taluk": _distinct(r["taluk"] for r in pounds), "yes_no": list(YES_NO)}
    if sheets != SHEETS:
        lists["local_authority_id"] = _distinct(r["local_authority_id"] for r in authorities)
        lists[CASES] = _distinct(r["case_id"] for r in cases)
    for name in sheets:
        for col in BY_NAME[name].columns:
            if col.kind == ENUM and col.name not in lists:
                lists[col.name] = list(col.values)
    return lists


def reference_rows(folder: Path, name: str, required: bool = True) -> list[dict[str, str]]:
    """The rows of a reference table as text (its CSV file, or sheets of that name), refused as the
    loader refuses them when its header is wrong."""
    from pipeline.load.bundle import find_sources, read_source

    sources, _, broken = find_sources(folder)
    if broken:
        raise InputRejected(broken)
    rows: list[dict[str, str]] = []
    found = [s for s in sources if s.register.name == name]
    if not found and not required:
        return rows
    if not found:
        raise PoundError(f"the bundle has no reference/{name}.csv; the workbook's lists are taken from it")
    for src in found:
        read = read_source(src, in_python=True)
        if read.problems:
            raise InputRejected(read.problems)
        for rec in read.frame.to_dict("records"):
            rec = {k: str(v).strip() for k, v in rec.items()}
            if any(rec[c] for c in BY_NAME[name].names if c in rec):
                rows.append(rec)
    return rows


def _distinct(values) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))
