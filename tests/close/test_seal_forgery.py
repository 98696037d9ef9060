"""A close's figures id seals the whole record (close/seal.py figures_id_of): every field of
close.json edited is named by pound verify; a sealed file edited with its hash edited to match
is named too; a close made again on other figures, even back-dated, has another id than the one
on the signed page; a forgery rewritten whole verifies intact on the folder alone, and only its
id tells it from the close signed. A close of the first format verifies as it always did.

On the golden bundle, October and November closed (tests/close/conftest.py `closed`).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from test_close import AS_OF

from pipeline.close import seal
from pipeline.load.closes import FORMAT, FORMAT_1
from pipeline.reports.stamp import figures_id

NOTE = "reviewed in the monthly meeting"      # the note of the closes of conftest.py `closed`
ID_LINE = "altered: close.json (its fields and figures give the figures id "
CHANGED = "not the page the figures id seals: its words, figures or script were changed after the close"


def _copy(closed, tmp_path: Path, month: str = "2026-11") -> Path:
    bundle, _ = closed
    copy = tmp_path / month
    shutil.copytree(bundle / "closes" / month, copy)
    return copy


def _record(folder: Path) -> dict:
    return json.loads((folder / "close.json").read_text(encoding="utf-8"))


def _write(folder: Path, record: dict) -> None:
    (folder / "close.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _verify(run_cli, folder: Path, *more) -> tuple[int, list[str]]:
    """pound verify's exit code and the lines it said of the verdict, the folder's name taken off."""
    code, out, err = run_cli("verify", folder, *more)
    said = [line.removeprefix(f"{folder}: ") for line in (out + err).strip().splitlines()]
    return code, [line for line in said if not line.startswith(("signed page:", "no signed page"))]


def test_an_untouched_close_verifies_intact_and_its_id_is_stable(closed, run_cli, tmp_path):
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    assert record["format"] == FORMAT and len(record["figures_id"]) == seal.ID_DIGITS
    assert seal.figures_id_of(record) == seal.figures_id_of(_record(folder)) == record["figures_id"]
    assert record["page_one_id"] == figures_id(record["signed"])
    # the definition is pinned, as an auditor would work it out without pound: changing it would
    # unseal every close of this format (a new definition is a new FORMAT)
    body = {k: v for k, v in record.items() if k not in ("figures_id", "files")}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest()[:16] == record["figures_id"]
    # the page the District Magistrate signs prints the close's id (the fake page as the real one does)
    assert f"figures id {record['figures_id']}" in (folder / "monthly_review_2026-11.html").read_text(encoding="utf-8")
    # the extracts and the review workbook are sealed by the id (their hashes in data_files), the pages are not
    assert sorted(record["data_files"]) == ["findings.csv", "monthly_accounts.csv", "reconciliation.csv",
                                            "review_2026-11.xlsx"]
    assert all(record["files"][name] == digest for name, digest in record["data_files"].items())
    code, lines = _verify(run_cli, folder)
    assert code == 0 and lines[0].startswith("intact: checked the sealed pack only"), lines
    # two months closed by the same hand, minutes apart, on other figures: other ids
    assert _record(closed[0] / "closes" / "2026-10")["figures_id"] != record["figures_id"]


def _add_a_day(record):
    record["closed_at"] = record["closed_at"].replace("2026-", "2025-", 1)


def _other_input(record):
    record["inputs"][0]["sha256"] = "0" * 64


def _a_figure(record):
    pa = next(r for r in record["figures"]["accounts"] if r["pound_id"] == "PA")
    pa["fines_received"] += 100


def _a_finding_decision(record):
    record["figures"]["findings"][0]["review_status"] = "dismissed"


def _page_one(record):
    record["signed"][0]["value"] += 1


def _a_reading(record):
    record["parameters"]["reconciliation_lag"] = json.dumps(99)


def _who(record):
    record["closed_by"] = "Another DM"


@pytest.mark.parametrize("edit", [
    _who,
    _add_a_day,
    lambda r: r.update(note="not reviewed"),
    lambda r: r.update(as_of="2026-12-30"),
    lambda r: r.update(reopen="a reason made up later"),
    lambda r: r.update(supersedes="2026-12-01 10:00:00"),
    lambda r: r.update(district="D1"),
    _other_input,
    _a_figure,
    _a_finding_decision,
    _page_one,
    _a_reading,
    lambda r: r.update(tool_version="0.0.0"),
    lambda r: r.update(moved=["page 1 printed 01-12-2026 differs"]),
], ids=["closed_by", "closed_at", "note", "as_of", "reopen", "supersedes", "district", "input sha256", "accounts figure",
        "finding decision", "page 1 figure", "reading", "tool_version", "moved"])
def test_each_field_of_close_json_edited_is_named_by_verify(closed, run_cli, tmp_path, edit):
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    sealed_id = record["figures_id"]
    edit(record)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2
    assert lines[0] == (f"{ID_LINE}{seal.figures_id_of(record)}, not {sealed_id}, the id it was sealed with: a field "
                        "or figure was changed after the close)")
    # who closed the month and when are also set against the sealed review, which says them
    said = f"{record['closed_by']} on {record['closed_at'][8:10]}-{record['closed_at'][5:7]}-{record['closed_at'][:4]}"
    assert lines[1:] == ([f"altered: close.json (closed_by or closed_at: the sealed monthly_review_2026-11.html does not "
                          f"say the month was closed by {said} {record['closed_at'][11:16]})"]
                         if edit in (_who, _add_a_day) else [])


def test_a_sealed_csv_edited_with_its_hash_edited_to_match_is_named(closed, run_cli, tmp_path):
    folder = _copy(closed, tmp_path)
    csv = folder / "monthly_accounts.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("60000", "50000", 1).replace("600.00", "500.00", 1),
                   encoding="utf-8")
    # the near miss of the seal by the id: the hash under files not edited, the file is named as ever
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == ["altered: monthly_accounts.csv"]
    record = _record(folder)
    record["files"]["monthly_accounts.csv"] = seal.sha256(csv)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == ["altered: monthly_accounts.csv (not the file the figures id seals: its sha256 "
                                   "differs from the one under data_files in close.json)"]
    # its hash under data_files edited as well: close.json no longer gives its id
    record["data_files"]["monthly_accounts.csv"] = seal.sha256(csv)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and len(lines) == 1 and lines[0].startswith(ID_LINE)


def test_a_page_one_figure_edited_on_the_sealed_page_with_its_hash_is_named(closed, run_cli, tmp_path):
    """The page the DM signs shows page 1's figures, which close.json seals under the id: a figure
    edited on the page, its hash under files edited to match, is named."""
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    page = next(folder.glob("monthly_review_*.html"))
    shown = next(f for f in record["signed"] if f["money"])
    text = page.read_text(encoding="utf-8")
    at = text.index(shown["text"], text.index(shown["label"]))
    page.write_text(text[:at] + "99,999.00" + text[at + len(shown["text"]):], encoding="utf-8")
    record["files"][page.name] = seal.sha256(page)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == [f"altered: {page.name} ({CHANGED})",
                                   f"altered: {page.name} (it does not show page 1's figure as close.json seals it: "
                                   f"{shown['label']}: {shown['text']})"]


def test_any_sealed_page_edited_with_its_hash_is_named(closed, run_cli, tmp_path):
    """Every page the close seals (and a script they load beside them) is hashed under `pages`, which
    the id covers: the reconciliation's page with an amount put in, and the monthly review with words
    added below its page 1, each with its hash under files edited to match, is named; the PDF to
    sign, which prints the id, is sealed by files alone. (The session's close draws its pages by a
    stand-in: tests/close/conftest.py.)"""
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    assert record["pages"].keys() == {p.name for p in folder.iterdir() if p.suffix in (".html", ".js")}
    rec = next(folder.glob("reconciliation_*.html"))
    review = next(folder.glob("monthly_review_*.html"))
    rec.write_text(rec.read_text(encoding="utf-8").replace("</body>", "<p>Rs 4,850.00 credited</p></body>"),
                   encoding="utf-8")
    review.write_text(review.read_text(encoding="utf-8").replace("</body>", "<p>explained at the meeting</p></body>"),
                      encoding="utf-8")
    for f in (rec, review):
        record["files"][f.name] = seal.sha256(f)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == [f"altered: {f.name} ({CHANGED})" for f in sorted((review, rec))], lines


def test_the_page_to_sign_printed_again_with_a_figure_edited_is_named(closed, run_cli, tmp_path):
    """The PDF to sign prints the id, so files alone seals it: printed again from its HTML with a
    page-1 figure edited (the HTML put back as sealed), its hash under files edited, it is named."""
    from pipeline.documents.pdf import print_reports

    folder = _copy(closed, tmp_path)
    record = _record(folder)
    page = folder / "monthly_review_2026-11.html"
    sealed = page.read_text(encoding="utf-8")
    shown = next(f for f in record["signed"] if f["money"])
    at = sealed.index(shown["text"], sealed.index(shown["label"]))
    page.write_text(sealed[:at] + "1.00" + sealed[at + len(shown["text"]):], encoding="utf-8")
    [pdf] = print_reports([page])
    page.write_text(sealed, encoding="utf-8")
    _record_files(folder, pdf)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == [f"altered: {pdf.name} (the page to sign does not show page 1's figure as close.json "
                                   f"seals it: {shown['label']}: {shown['text']})"], lines


def test_a_file_added_with_its_hash_under_files_is_not_the_closes(closed, run_cli, tmp_path):
    # files lies outside the id: a page put in and listed there is named, since a close writes only
    # its data files, its pages, the page to sign as PDF and the scan; the scan listed is not (twin)
    folder = _copy(closed, tmp_path)
    added = folder / "evil.html"
    added.write_text("<html>the money was credited</html>", encoding="utf-8")
    _record_files(folder, added)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == ["altered: close.json (evil.html is under its files, but a close writes no such "
                                   "file: it was added after the close)"]
    added.unlink()
    record = _record(folder)
    del record["files"]["evil.html"]
    scan = folder / seal.SIGNED_SCAN
    scan.write_bytes(b"%PDF-1.4 a scan")
    record["files"][scan.name] = seal.sha256(scan)
    _write(folder, record)
    assert _verify(run_cli, folder)[0] == 0


def _print_again(folder: Path, record: dict) -> None:
    """The forger's last step: the page to sign printed again from the HTML rewritten, its hash with it."""
    from pipeline.documents.pdf import print_reports

    [pdf] = print_reports([folder / "monthly_review_2026-11.html"])
    record["files"][pdf.name] = seal.sha256(pdf)
    _write(folder, record)


def test_a_forgery_rewritten_whole_is_told_from_the_close_signed_only_by_its_id(closed, run_cli, tmp_path):
    """Who closed the month changed, the id worked out again and written in: the sealed page no
    longer prints it, nor hashes as sealed. The page rewritten too (its hash under `pages` worked out
    as the close works it out, with the id pending, then the id again, and its hash under files):
    verify says intact, on the folder and with the bundle (the figures are the month's); the id is
    not the one on the signed paper."""
    bundle, _ = closed
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    signed_id, who = record["figures_id"], record["closed_by"]
    record["closed_by"] = "Another DM"
    record["figures_id"] = seal.figures_id_of(record)
    _write(folder, record)
    page = folder / "monthly_review_2026-11.html"
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines[:2] == [f"altered: {page.name} ({CHANGED})",
                                       f"altered: {page.name} (it does not print the figures id in close.json, "
                                       f"{record['figures_id']})"]
    assert lines[2].startswith("altered: close.json (closed_by or closed_at: the sealed monthly_review_2026-11.html "
                               "does not say the month was closed by Another DM on ")
    assert lines[3:] == ["altered: monthly_review_2026-11.pdf (the page to sign does not print the figures id in "
                         f"close.json, {record['figures_id']})"]
    # the page's words rewritten, and the id, its hash under files with them: the page is not the one
    # the id seals
    page.write_text(page.read_text(encoding="utf-8").replace(signed_id, record["figures_id"])
                    .replace(f"by {who} on", "by Another DM on"), encoding="utf-8")
    record["files"][page.name] = seal.sha256(page)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines[0] == f"altered: {page.name} ({CHANGED})"
    # its hash under pages worked out again, and so the id: the page to sign, as PDF, still prints the id signed
    hashed = seal.page_as_hashed(page.read_bytes(), record["figures_id"])
    record["pages"][page.name] = hashlib.sha256(hashed).hexdigest()
    record["figures_id"] = seal.figures_id_of(record)
    page.write_bytes(hashed.replace(seal.ID_PENDING.encode(), record["figures_id"].encode()))
    record["files"][page.name] = seal.sha256(page)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == ["altered: monthly_review_2026-11.pdf (the page to sign does not print the figures "
                                   f"id in close.json, {record['figures_id']})"]
    _print_again(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 0, lines
    code, lines = _verify(run_cli, folder, "--bundle", bundle)
    assert code == 0 and lines == ["intact (the input files rebuild the sealed figures)"], lines
    assert record["figures_id"] != signed_id            # what only the paper tells


def test_a_figure_forged_consistently_is_named_by_the_rebuild_with_the_id_it_gives(closed, run_cli, tmp_path):
    bundle, _ = closed
    folder = _copy(closed, tmp_path)
    record = _record(folder)
    signed_id = record["figures_id"]
    _a_figure(record)
    record["figures_id"] = seal.figures_id_of(record)
    page = folder / "monthly_review_2026-11.html"
    page.write_text(page.read_text(encoding="utf-8").replace(signed_id, record["figures_id"]), encoding="utf-8")
    record["files"][page.name] = seal.sha256(page)
    _print_again(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 0, lines
    code, lines = _verify(run_cli, folder, "--bundle", bundle)
    assert code == 2
    assert lines == ["rebuilt figure differs: 2026-11 accounts PA fines_received: sealed 60100, rebuilt 60000",
                     f"rebuilt figures id differs: sealed {record['figures_id']} (the id on the signed page), "
                     f"rebuilt {signed_id}"]


def test_a_ledger_entry_changed_and_the_month_closed_again_back_dated_has_another_id(closed, tmp_path, run_cli, fake):
    # October closed by "DM Dist" with its note (conftest.py `closed`: the session's close, copied)
    bundle, _ = closed
    first = _record(bundle / "closes" / "2026-10")
    assert (first["closed_by"], first["note"]) == ("DM Dist", NOTE)
    # the District Magistrate's deposit ledger: DM2, the credit of G05's Rs 30.00 to the local fund, made Rs 20.00
    ledger = bundle / "ledgers" / "dm_deposit.csv"
    text = ledger.read_text(encoding="utf-8")
    assert "DM2,2026-10-31,credit_to_local_fund,3000," in text
    ledger.write_text(text.replace("DM2,2026-10-31,credit_to_local_fund,3000,", "DM2,2026-10-31,credit_to_local_fund,2000,"),
                      encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "again", "--as-of", AS_OF)
    assert code == 0, err
    code, out, err = run_cli("close", "--db", tmp_path / "again" / "pound.duckdb", "--month", "2026-10", "--by",
                             "DM Dist", "--bundle", bundle, "--note", NOTE, "--reopen", "DM2 re-read")
    assert code == 0, err
    folder = Path(out.strip())
    again = _record(folder)
    assert again["figures"]["reconciliation"] != first["figures"]["reconciliation"]      # the premise: a figure moved
    assert again["figures_id"] != first["figures_id"]
    # back-dated to the first close, not reopened: close.json no longer gives its id
    again.update(closed_at=first["closed_at"], reopen=None, supersedes=None)
    _write(folder, again)
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines[0].startswith(ID_LINE)
    # the forger's id worked out again: still not the first close's, the id on the signed paper
    assert seal.figures_id_of(again) not in (first["figures_id"], again["figures_id"])
    # the first close, against the bundle as it stands: the ledger is named
    code, lines = _verify(run_cli, bundle / "closes" / "2026-10", "--bundle", bundle)
    assert code == 2 and lines == ["input changed since the close: ledgers/dm_deposit.csv (its sha256 differs)"]


def _record_files(folder: Path, *changed: Path) -> None:
    """The forger's habit: each file changed given its new hash under files."""
    record = _record(folder)
    for f in changed:
        record["files"][f.name] = seal.sha256(f)
    _write(folder, record)


def _first_format(folder: Path) -> dict:
    """The close as a pound before the figures id sealed the record wrote it."""
    record = _record(folder)
    del record["data_files"], record["page_one_id"], record["pages"]
    record.update(format=FORMAT_1, figures_id=figures_id(record["signed"]))
    _write(folder, record)
    return record


def test_a_close_of_the_first_format_verifies_as_it_did(closed, run_cli, tmp_path):
    bundle, _ = closed
    folder = _copy(closed, tmp_path)
    _first_format(folder)
    # a close of today's made to look like one of the first format, to escape its id: its page says so
    code, lines = _verify(run_cli, folder)
    later = ("altered: close.json (it says format pound-close/1, but the sealed monthly_review_2026-11.html prints "
             "the figures id of a later pound, which seals the whole record)")
    assert code == 2 and lines == [later]
    # the words "Figures id" written apart by another space: the same
    page = folder / "monthly_review_2026-11.html"
    text = page.read_text(encoding="utf-8")
    assert re.search("[Ff]igures id", text)
    page.write_text(re.sub("([Ff]igures) id", r"\1&nbsp;id", text), encoding="utf-8")
    _record_files(folder, page)
    assert _verify(run_cli, folder) == (2, [later])
    # a later close's own fields kept, what only a later pound writes: named as well
    record = _record(folder)
    record["pages"] = {}
    _write(folder, record)
    assert _verify(run_cli, folder)[1][0] == ("altered: close.json (it says format pound-close/1, but it holds pages, "
                                              "which only a later pound writes, sealed by a figures id of the whole record)")
    del record["pages"]
    _write(folder, record)
    # the page as the first format printed it (page 1's id), its hash with it: the close of that format
    page = folder / "monthly_review_2026-11.html"
    record = _record(folder)
    page.write_text(page.read_text(encoding="utf-8").replace(_record(closed[0] / "closes" / "2026-11")["figures_id"],
                                                             record["figures_id"]), encoding="utf-8")
    record["files"][page.name] = seal.sha256(page)
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 0 and lines[0].startswith("intact: checked the sealed pack only"), lines
    assert lines[1].startswith("sealed by an earlier pound (pound-close/1): its figures id covers page 1 alone")
    code, lines = _verify(run_cli, folder, "--bundle", bundle)
    assert code == 0 and lines[0] == "intact (the input files rebuild the sealed figures)", lines
    # as before: a file altered is named, a field of close.json is not sealed (the note says so)
    record = _record(folder)
    record["closed_by"] = "Another DM"
    _write(folder, record)
    code, lines = _verify(run_cli, folder)
    assert code == 0
    (folder / "findings.csv").write_text("x", encoding="utf-8")
    code, lines = _verify(run_cli, folder)
    assert code == 2 and lines == ["altered: findings.csv"]


def test_an_id_read_back_from_the_pdf_is_the_id_typed():
    """The real page's font sets "ff" as one glyph (U+FB00): an id holding it is still found."""
    from pipeline.close.verify import as_typed

    assert as_typed("Figures id 6393\ufb00fabc52ef75") == "Figures id 6393fffabc52ef75"
    assert as_typed("Figures id 0123456789abcdef") == "Figures id 0123456789abcdef"
