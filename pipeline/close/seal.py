"""pound close: seal a month the District Magistrate has signed off into BUNDLE/closes/.

The folder BUNDLE/closes/<YYYY-MM>[_<district>]/ holds the month's reports, its
review_<month>.xlsx with the findings still waiting for a decision when it was closed (the month's
and earlier months'), the month's extracts of
monthly_accounts, findings and reconciliation, and close.json: who closed it and when,
the as-of date, the tool's version, every reading in force, the sha256 and row count of
every input file loaded, the month's figures, the figures of the month at a glance (the page
the District Magistrate signs, pipeline/reports/glance.py: `signed`, which `pound close` also
says on the command line), and the sha256 of every other file of the folder. A month closed again (--reopen) keeps both folders; the later close is in force.

The figures id (figures_id_of) is a digest of the whole record: every figure sealed and every
field of close.json (who, when, the note, the reopening, the as-of date, the readings, the
inputs and their hashes, the hashes of the extracts and the review workbook, `data_files`, and of
the pages, `pages`), all but the id itself and `files`. The pages are rendered with ID_PENDING
where the id goes and hashed so (`pages`); the id is then worked out, written into the pages in
ID_PENDING's place, and the page the District Magistrate signs printed to PDF with it. So an edit
of any page's words, figures or script changes the id as surely as an edit of a figure does
(verify hashes each page with the id taken back out). The PDF printed and the scan are sealed by
their hashes under `files` alone, which the id cannot cover (they print it); verify reads the id
on the PDF's first page. A close made again with any other figure, input, reading, signatory,
time, note or page has another id than the signed paper.

Everything is written into a hidden folder beside the target and renamed into place at
the end: a close that is killed or fails leaves no folder (the hidden one is swept away by
the next close of the same month).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from importlib import metadata
from pathlib import Path

from pipeline.build import record as record_of_build
from pipeline.close import printed
from pipeline.close.logs import sealed_logs
from pipeline.core.digest import file_sha256 as sha256
from pipeline.core.errors import PoundError, StaleFigures
from pipeline.core.faults import point
from pipeline.core.months import day_text, month_bounds
from pipeline.core.whole import write_whole, written_whole
from pipeline.documents.pdf import print_reports
from pipeline.load.bundle import CLOSES
from pipeline.load.closes import CLOSE_FILE, FORMAT, FORMAT_1, bundles_loaded, closes_of
from pipeline.outputs.exports import BY_TABLE, table_columns, write_extract
from pipeline.outputs.review_sheet import write_review_workbook
from pipeline.read.database import as_of, check_district, connect
from pipeline.read.select import Cond, Selection, col
from pipeline.reports import glance
from pipeline.reports.page import closed_words
from pipeline.reports.render import render_reports, report_suffix
from pipeline.reports.review import has_activity
from pipeline.reports.stamp import figures_id

SIGNED_SCAN = "signed_page.pdf"     # the scan of the page the District Magistrate signed
ID_PENDING = "figuresidpending"     # where a page prints the figures id, while the pages are hashed (as long as an id)
SIGNED_SEAL = "signed.json"         # its hash, when it was added after the close

# the fields of close.json its figures id does not cover: the id itself, and the hashes of every
# file (among them the pages, which print the id; the files written before the pages are
# covered, as `data_files`)
NOT_COVERED = ("figures_id", "files")
ID_DIGITS = 16          # 64 bits: a close forged to carry the id of the signed paper is out of reach

FINDING_FIELDS = ("rule_id", "subject_id", "pound_id", "severity", "section", "event_on", "review_status",
                  "reviewed_on", "reviewed_by")


def close_month(db: Path, bundle: Path, month: str, by: str, district: str | None = None, note: str | None = None,
                reopen: str | None = None, now: dt.datetime | None = None, signed: Path | None = None,
                review: Path | None = None) -> Path:
    """Seal the month; returns the close folder. PoundError (nothing written) when it may not be closed;
    StaleFigures when files were loaded after the last build. `signed`: a scan of the signed page,
    sealed with the rest (or added later: add_signed). `review`: the folder of the month's review,
    whose pages rendered from this very build are sealed as they are (render.kept_pages); the monthly
    review, which prints the close, is rendered for it."""
    month_bounds(month)
    if signed is not None:
        _check_scan(signed)
    if not str(by or "").strip():
        raise PoundError("the close must name who signs it, the District Magistrate (--by; at the desk, "
                         "\"Signed by\")")
    con = connect(db)
    try:
        stale = record_of_build.since(con)
        if stale:
            raise StaleFigures(f"cannot close {month}: " + record_of_build.stale_line(stale, db)
                               + ", then pound close again")
        district = check_district(con, district)
        where = f" in district {district}" if district else ""
        day = as_of(con)
        last = month_bounds(month)[1]
        if day is None or last > day:
            raise PoundError(f"cannot close {month}: its last day, {day_text(last)}, is after "
                             f"{day_text(day) if day else 'the as-of date'}, the date the accounts are drawn up to; "
                             f"the month is not over in the accounts (build them with --as-of {last.isoformat()} or later)")
        today = (now or dt.datetime.now()).date()
        if last >= today:
            raise PoundError(f"cannot close {month}: it is not over yet (its last day is {day_text(last)}, today is "
                             f"{day_text(today)}); rows of its last days may still come in")
        if not has_activity(con, month, district):
            raise PoundError(f"cannot close {month}: nothing was impounded, paid, due or found in it{where}")
        bundle = _check_bundle(con, bundle, db)
        earlier = [c for _, c in closes_of(bundle, month, district)]
        if earlier and not reopen:
            last_close = earlier[-1]
            raise PoundError(f"{month}{where} was closed by {last_close['closed_by']} on {last_close['closed_at']}; "
                             "to close it again give --reopen \"the reason\" (both closes are kept)")
        if reopen and not earlier:
            raise PoundError(f"--reopen: {month}{where} has not been closed; close it without --reopen")
        name = f"{month}{report_suffix(district)}" + (f"_r{len(earlier) + 1}" if earlier else "")
        root = bundle / CLOSES
        if root.is_symlink():
            raise PoundError(f"{root} is a link to another folder: a close is sealed only into the bundle's own "
                             f"{CLOSES}/ folder; put the folder itself there, then close again")
        target = root / name
        if target.exists():
            raise PoundError(f"{target} already exists; it is not a close of {month}{where}")
        root.mkdir(exist_ok=True)
        partial = root / f".{name}.partial"
        shutil.rmtree(partial, ignore_errors=True)          # left by a close that was killed
        partial.mkdir()
        try:
            record = _record(con, month, district, by, note, reopen, day, now, earlier)
            record["moved"] = printed.moved(con, month, district, record["signed"])
            if sealed_logs(bundle):                  # the desk's history, by its length and hash (close/logs.py)
                record["logs"] = sealed_logs(bundle)
            _write_extracts(con, month, district, partial)
            write_review_workbook(con, month, district, partial / f"review_{month}{report_suffix(district)}.xlsx")
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
    finally:
        con.close()
    try:
        # the files written so far print no id: their hashes are sealed by it
        record["data_files"] = {p.name: sha256(p) for p in sorted(partial.iterdir())}
        sealing = closed_words(record["closed_by"], dt.datetime.fromisoformat(record["closed_at"]), district,
                               len(earlier) + 1, reopen, sealed=True)
        pages = render_reports(db, month, district, partial, sealing=sealing, sealed_id=ID_PENDING, kept=review)
        # the pages (and what they load beside them), as hashed with the id to come pending
        record["pages"] = {p.name: sha256(p) for p in sorted(partial.iterdir()) if p.name not in record["data_files"]}
        # the id of the record as close.json will give it back (a JSON round trip)
        record["figures_id"] = figures_id_of(json.loads(json.dumps(record, ensure_ascii=False)))
        _print_id(partial, record["pages"], record["figures_id"])
        # the page to sign, as it is sealed: the monthly review printed to PDF beside its HTML
        print_reports([p for p in pages if p.name.startswith("monthly_review")])
        if signed is not None:
            shutil.copyfile(signed, partial / SIGNED_SCAN)
        record["files"] = {p.name: sha256(p) for p in sorted(partial.iterdir())}
        (partial / CLOSE_FILE).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.rename(partial, target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return target


def _print_id(folder: Path, pages: dict[str, str], fid: str) -> None:
    """The figures id written into each page of `pages` in ID_PENDING's place; the monthly review,
    whose page 1 the District Magistrate signs, must print it."""
    for name in pages:
        data = (folder / name).read_bytes()
        if ID_PENDING.encode() in data:
            write_whole(folder / name, data.replace(ID_PENDING.encode(), fid.encode()))
        elif name.startswith("monthly_review") and name.endswith(".html"):
            raise RuntimeError(f"{name} does not print the figures id: it cannot be sealed")


def page_as_hashed(data: bytes, fid: str) -> bytes:
    """A sealed page's bytes as they were hashed under `pages`: the figures id taken back out."""
    return data.replace(fid.encode(), ID_PENDING.encode()) if fid else data


def _check_bundle(con, bundle: Path, db: Path) -> Path:
    """The bundle the close goes into: one the database was loaded from, where the database finds
    it (load/closes.py bundles_loaded: beside it when it was loaded from beside it, so that in an
    office folder copied with its database, the copy's own bundle), since every later build reads
    the closes there."""
    bundle = Path(bundle).resolve()
    loaded = [place for place, _ in bundles_loaded(con, db)]
    if bundle not in loaded:
        raise PoundError(f"{bundle} is not a bundle the database {db} was loaded from (it finds its bundle"
                         f"{'s' if len(loaded) > 1 else ''} at " + (", ".join(str(b) for b in loaded) or "no bundle")
                         + "); the close is kept in that bundle, where every later build looks for it. Close with the "
                         f"database beside this bundle, or make one of it (pound run {bundle} --out FOLDER)")
    return bundle


def _rows(con, model: str, columns, where, order) -> list[dict]:
    """A selection's rows as plain JSON values (exact integers, ISO dates)."""
    s = Selection(model, tuple(col(c) for c in columns), tuple(where), tuple(order))
    sql, params = s.sql()
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [{n: _plain(v) for n, v in zip(names, row, strict=True)} for row in cur.fetchall()]


def _plain(v):
    if isinstance(v, dt.datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, dt.date):
        return v.isoformat()
    return v


def _scope(month: str, district: str | None, month_col: str = "month") -> list:
    return [Cond(month_col, "=", month)] + ([Cond("district", "=", district)] if district else [])


def _reconciliation_scope(month: str, district: str | None) -> list:
    """Reconciliation rows of the month (period_month): those due in it, and entries with no due day made in it."""
    return _scope(month, district, "period_month")


def sealed_figures(con, month: str, district: str | None) -> dict:
    """Every figure a close seals, as plain JSON values: the month's accounts, findings (with their
    decisions) and reconciliation rows, and page 1's figures (`signed`). verify rebuilds them all."""
    return {
        "accounts": _rows(con, "monthly_accounts", table_columns(con, "monthly_accounts"), _scope(month, district),
                          ["pound_id"]),
        "findings": _rows(con, "findings", FINDING_FIELDS, _scope(month, district), ["rule_id", "subject_id"]),
        "reconciliation": _rows(con, "reconciliation", BY_TABLE["reconciliation"].columns + ("district",),
                                _reconciliation_scope(month, district),
                                ["ledger", "local_authority_id", "reference", "head"]),
        "signed": glance.sealed(con, month, district),
    }


def _record(con, month, district, by, note, reopen, day, now, earlier) -> dict:
    sealed = sealed_figures(con, month, district)
    signed = sealed.pop("signed")
    params = {name: value for name, value in con.execute("SELECT name, value FROM parameters ORDER BY name").fetchall()}
    inputs = [{"file": f, "register": r, "sha256": h, "rows": n, "bundle": b} for f, r, h, n, b in con.execute(
        "SELECT file, register, sha256, rows, bundle FROM loads ORDER BY load_id").fetchall()]
    return {
        "format": FORMAT,
        "month": month,
        "district": district,
        "closed_by": by.strip(),
        "closed_at": (now or dt.datetime.now()).replace(microsecond=0).isoformat(sep=" "),
        "note": note,
        "reopen": reopen,
        "supersedes": max((c["closed_at"] for c in earlier), default=None),
        "as_of": day.isoformat(),
        "tool_version": _version(),
        "parameters": params,
        "inputs": inputs,
        "figures": sealed,
        "signed": signed,
        "page_one_id": figures_id(signed),        # the id a draft of page 1 showing these figures carried
        "build": _build(con),
    }


def figures_id_of(record: dict) -> str | None:
    """The figures id a close's record gives: the first ID_DIGITS hex digits of the sha256 of the
    record, all but NOT_COVERED, as JSON with its keys sorted, no spaces, non-ASCII kept (UTF-8).
    None for a close of FORMAT_1, whose id covered page 1 alone and is not checked."""
    if record.get("format") == FORMAT_1:
        return None
    body = {k: v for k, v in record.items() if k not in NOT_COVERED}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_DIGITS]


def _build(con) -> dict | None:
    b = record_of_build.last(con)
    return {"build_id": b.build_id, "built_at": b.built_at.isoformat(sep=" "), "last_load_id": b.last_load_id} \
        if b else None


def signed_lines(record: dict) -> list[str]:
    """What `pound close` says it sealed: the figures of the page the District Magistrate signs."""
    return [f"sealed: {f['label']}: {f['text']}" for f in record.get("signed", [])]


def _check_scan(scan: Path) -> None:
    scan = Path(scan)
    if not scan.is_file():
        raise PoundError(f"--signed {scan}: no such file; give the scan of the signed page (a PDF)")
    if not scan.read_bytes()[:5] == b"%PDF-":
        raise PoundError(f"--signed {scan}: not a PDF file; scan the signed page to PDF")


def add_signed(folder: Path, scan: Path) -> Path:
    """Keep the scan of the signed page with a close made without it: sealed first, by its hash in
    signed.json (which also holds the hash of the close.json it belongs to; close.json itself is not
    rewritten), then copied in as SIGNED_SCAN. PoundError when the close already holds a sealed
    scan; a seal whose scan is not in place (an add killed between the two) is completed by the
    same scan again, and by no other."""
    from pipeline.load.closes import read_close

    folder = Path(folder)
    record = read_close(folder)
    _check_scan(scan)
    sealed = _sealed_scan(folder)
    if (folder / SIGNED_SCAN).exists() or record.get("files", {}).get(SIGNED_SCAN):
        raise PoundError(f"{folder} already holds a signed page, {SIGNED_SCAN}; a close keeps one")
    with written_whole(folder / SIGNED_SCAN) as tmp:
        shutil.copyfile(scan, tmp)
        digest = sha256(tmp)
        if sealed is not None and sealed != digest:
            raise PoundError(f"{folder} already holds a signed page, sealed in {SIGNED_SEAL}, and its {SIGNED_SCAN} "
                             f"is missing: only the scan it seals ({sealed[:8]}...) completes it, not {scan}")
        if sealed is None:
            seal = {"file": SIGNED_SCAN, "sha256": digest, "close_json_sha256": sha256(folder / CLOSE_FILE),
                    "added_at": dt.datetime.now().replace(microsecond=0).isoformat(sep=" ")}
            write_whole(folder / SIGNED_SEAL, json.dumps(seal, indent=1) + "\n")
        point("signed:sealed")
    return folder / SIGNED_SCAN


def _sealed_scan(folder: Path) -> str | None:
    """The sha256 signed.json seals (None when there is no signed.json); PoundError when it cannot be read."""
    path = Path(folder) / SIGNED_SEAL
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))["sha256"]
    except (ValueError, KeyError, TypeError):
        raise PoundError(f"{path} cannot be read: it was not written by pound close or has been altered") from None


def _write_extracts(con, month: str, district: str | None, folder: Path) -> None:
    write_extract(con, BY_TABLE["monthly_accounts"], folder / "monthly_accounts.csv", _scope(month, district))
    write_extract(con, BY_TABLE["findings"], folder / "findings.csv", _scope(month, district))
    write_extract(con, BY_TABLE["reconciliation"], folder / "reconciliation.csv", _reconciliation_scope(month, district))


def _version() -> str:
    try:
        return metadata.version("pound-accounts")
    except metadata.PackageNotFoundError:
        return "unknown"
