"""pound verify --bundle: the month rebuilt from the input files its close names, with the
readings and the as-of date of the close, and the rebuilt figures set against the sealed ones:
close.json's (differences), the sealed extracts' cell by cell (extract_differences), and the
figures id they give (rebuilt_id_differences). verify.py checks the sealed folder itself."""

from __future__ import annotations

import csv
import datetime as dt
import json
import shutil
import tempfile
from pathlib import Path

from pipeline.close.verify import Verdict
from pipeline.core.page_measures import by_measure

# each sealed table's rows are matched by these columns; every other column is compared
_KEYS = {"accounts": ("pound_id",), "findings": ("rule_id", "subject_id"),
         "reconciliation": ("ledger", "local_authority_id", "reference", "head")}


def differences(record: dict, rebuilt: dict) -> list[str]:
    """Every sealed figure the rebuild does not give again, a line each: the accounts, the findings
    with their decisions, the reconciliation, and page 1's figures (the page signed)."""
    month = record["month"]
    sealed = dict(record.get("figures", {}), signed=record.get("signed", []))
    out = []
    for table, keys in _KEYS.items():
        before = {tuple(r.get(k) for k in keys): r for r in sealed.get(table, [])}
        after = {tuple(r.get(k) for k in keys): r for r in rebuilt[table]}
        for key in sorted(before.keys() | after.keys(), key=str):
            name = " ".join(str(k) for k in key if k is not None)
            b, a = before.get(key), after.get(key)
            if b is None or a is None:
                out.append(f"rebuilt figure differs: {month} {table} {name}: "
                           + ("sealed, not rebuilt" if a is None else "rebuilt, not sealed"))
                continue
            for column in sorted(b.keys() & a.keys()):
                if b[column] != a[column]:
                    out.append(f"rebuilt figure differs: {month} {table} {name} {column}: sealed {b[column]}, "
                               f"rebuilt {a[column]}")
    if "signed" not in record:           # a close made before page 1 was sealed
        return out
    before = by_measure(sealed["signed"])      # by measure id, a close's of before the ids by its labels
    for m, f in by_measure(rebuilt["signed"]).items():
        if before.get(m, {}).get("value") != f["value"]:
            was = before[m]["text"] if m in before else "not sealed"
            out.append(f"rebuilt figure differs: {month} page 1 {f['label']}: sealed {was}, rebuilt {f['text']}")
    return out


# the extracts a close seals (seal._write_extracts), each with the columns that name its rows
EXTRACTS = {"monthly_accounts.csv": ("pound_id",), "findings.csv": ("rule_id", "subject_id"),
            "reconciliation.csv": ("ledger", "local_authority_id", "reference", "head")}


def _csv_rows(path: Path, keys: tuple[str, ...]) -> dict[tuple, dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out: dict[tuple, dict] = {}
    for r in rows:
        key = tuple(r.get(k) or "" for k in keys)
        n = sum(1 for k in out if k[:-1] == key)        # a key met twice is told apart by its place
        out[(*key, n)] = r
    return out


def extract_differences(sealed: Path, rebuilt: Path) -> list[str]:
    """Every figure of the sealed extracts (the CSVs of the close folder) that the same extracts
    written from the rebuild do not give again, a line each, naming the file, the row and the column."""
    out = []
    for name, keys in EXTRACTS.items():
        if not (sealed / name).is_file() or not (rebuilt / name).is_file():
            continue
        before, after = _csv_rows(sealed / name, keys), _csv_rows(rebuilt / name, keys)
        for key in sorted(before.keys() | after.keys(), key=str):
            row = " ".join(str(k) for k in key[:-1] if k) + (f" (row {key[-1] + 1} of that name)" if key[-1] else "")
            b, a = before.get(key), after.get(key)
            if b is None or a is None:
                out.append(f"sealed file differs from the rebuild: {name} {row}: "
                           + ("sealed, not rebuilt" if a is None else "rebuilt, not sealed"))
                continue
            for column in [c for c in b if c in a and b[c] != a[c]]:
                out.append(f"sealed file differs from the rebuild: {name} {row} {column}: sealed {b[column] or 'blank'}, "
                           f"rebuilt {a[column] or 'blank'}")
    return out


def rebuilt_id_differences(record: dict, rebuilt: dict) -> list[str]:
    """The figures id the close would have had with the rebuilt figures, when it is not the id
    sealed (one line; none for a close of the first format)."""
    from pipeline.close.seal import figures_id_of
    from pipeline.reports.stamp import figures_id

    figures = dict(rebuilt)
    signed = figures.pop("signed")
    again = figures_id_of(json.loads(json.dumps(dict(record, figures=figures, signed=signed,
                                                     page_one_id=figures_id(signed)), ensure_ascii=False)))
    if again is None or again == record.get("figures_id"):
        return []
    return [f"rebuilt figures id differs: sealed {record.get('figures_id')} (the id on the signed page), "
            f"rebuilt {again}"]


def rebuild(record: dict, bundle: Path, verdict: Verdict, folder: Path | None = None) -> None:
    """Rebuild the month from the input files the close names; adds what does not match to `verdict`."""
    from pipeline.build import build
    from pipeline.close.seal import sealed_figures
    from pipeline.core.params import PARAMS, Parameters
    from pipeline.core.progress import QUIET
    from pipeline.load import connection
    from pipeline.load.bundle import find_sources, read_source
    from pipeline.load.closes import insert_close
    from pipeline.load.ingest import load_source

    bundle = Path(bundle)
    sources, _, _ = find_sources(bundle)
    by_label = {s.label: s for s in sources}
    wanted = record.get("inputs", [])
    chosen = []
    for f in wanted:
        src = by_label.get(f["file"])
        if src is None:
            verdict.inputs.append(f"input missing from the bundle: {f['file']}")
            continue
        if read_source(src).sha256 != f["sha256"]:
            verdict.inputs.append(f"input changed since the close: {f['file']} (its sha256 differs)")
            continue
        chosen.append(src)
    from pipeline.close.logs import changed_logs

    verdict.inputs += changed_logs(record, bundle)
    if verdict.inputs:
        return
    known = {p.name for p in PARAMS}
    values = {n: json.loads(v) for n, v in record.get("parameters", {}).items() if n in known}
    params = Parameters(values, as_of=dt.date.fromisoformat(record["as_of"]), source="the close")
    scratch = Path(tempfile.mkdtemp(prefix="pound-verify-"))
    try:
        con = connection.connect(scratch / "verify.duckdb")
        try:
            # the files in the order they were loaded when the month was closed
            for src in sorted(chosen, key=lambda s: [f["file"] for f in wanted].index(s.label)):
                res = load_source(con, src, bundle, QUIET, as_of=params.as_of)
                if res.status == "rejected":
                    verdict.inputs.append(f"input no longer loads: {src.label}")
            if verdict.inputs:
                return
            insert_close(con, 1, bundle, record)
            build(con, params)
            rebuilt = sealed_figures(con, record["month"], record.get("district"))
            verdict.figures += differences(record, rebuilt)
            verdict.figures += rebuilt_id_differences(record, rebuilt)
            if folder is not None:
                from pipeline.close.seal import _write_extracts

                again = scratch / "extracts"
                again.mkdir()
                _write_extracts(con, record["month"], record.get("district"), again)
                verdict.figures += extract_differences(Path(folder), again)
        finally:
            con.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
