"""review_<month>.xlsx: written, filled in as the District Magistrate's office would in a
spreadsheet, dropped into registers/, loaded back: the findings show the decisions."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pipeline.outputs.review_sheet import write_review_workbook
from pipeline.read.database import connect

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bundle"


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_the_review_round_trip_through_a_real_workbook(tmp_path, run_cli, shared):
    # the kept database and exports of `pound run` (ingest, then build), made once for the session
    kept = shared.run(GOLDEN, "2026-12-31", tmp_path / "before") / "pound.duckdb"
    before = read(tmp_path / "before" / "findings.csv")
    december_findings = [f for f in before if f["event_on"].startswith("2026-12")]
    assert december_findings and all(f["review_status"] == "open" for f in december_findings)
    # an undecided finding of an earlier month comes back in the month's workbook, after the month's own
    waiting = [f for f in before if f["review_status"] == "open" and f["event_on"][:7] < "2026-12"]
    assert waiting

    con = connect(kept)
    try:
        path = write_review_workbook(con, "2026-12", None, tmp_path / "review_2026-12.xlsx")
    finally:
        con.close()
    wb = load_workbook(path)
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    assert header[:6] == ["rule_id", "subject_id", "reviewed_on", "reviewed_by", "decision", "note"]
    rows = [dict(zip(header, (c.value for c in r), strict=True)) for r in ws.iter_rows(min_row=2)]
    assert sorted((r["rule_id"], r["subject_id"]) for r in rows[:len(december_findings)]) == \
        sorted((f["rule_id"], f["subject_id"]) for f in december_findings)
    assert sorted((r["rule_id"], r["subject_id"]) for r in rows[len(december_findings):]) == \
        sorted((f["rule_id"], f["subject_id"]) for f in waiting)
    # the day of the decision is the office's to write: never the accounts' date, which would date it back
    assert all(r["reviewed_on"] is None and r["decision"] is None for r in rows)
    help_text = " ".join(str(c.value) for c in wb["how to fill in"]["A"])
    assert "write in reviewed_on the day the decision is made" in help_text
    # the finding as it stands, to tie the decision to its figures
    details = {(f["rule_id"], f["subject_id"]): f["detail"] for f in before}
    assert all(r["finding_detail"] == details[(r["rule_id"], r["subject_id"])] for r in rows)
    # the day of each finding's event is a date too, written as the day decided is
    events = {(f["rule_id"], f["subject_id"]): f["event_on"] for f in before}
    assert all(r["event_on"] == dt.datetime.fromisoformat(events[(r["rule_id"], r["subject_id"])]) for r in rows)
    assert {ws.cell(i, header.index(c) + 1).number_format for i in range(2, ws.max_row + 1)
            for c in ("reviewed_on", "event_on")} == {"dd-mm-yyyy"}
    assert ws.data_validations.dataValidation, "the decision cell offers the five decisions"

    # the office decides the first finding at its meeting after the month (01-01-2027, the day the
    # tests load files on) and leaves the other rows blank: not decided yet
    ws.cell(2, header.index("reviewed_on") + 1, dt.datetime(2027, 1, 1))
    ws.cell(2, header.index("decision") + 1, "action_ordered")
    ws.cell(2, header.index("note") + 1, "Pound-keeper to explain in writing")
    bundle = tmp_path / "december" / "registers"
    bundle.mkdir(parents=True)
    wb.save(bundle / "review_2026-12.xlsx")

    code, out, err = run_cli("ingest", bundle.parent, "--db", kept, "--as-of", "2026-12-31")
    assert code == 0, err
    assert "not a register name" not in out + err          # its own help sheet is passed over quietly
    assert f"{len(rows) - 1:,} finding(s) left undecided (no decision written): passed over" in err
    assert run_cli("build", "--db", kept, "--out", tmp_path / "after", "--as-of", "2026-12-31")[0] == 0
    after = {(f["rule_id"], f["subject_id"]): f for f in read(tmp_path / "after" / "findings.csv")}
    decided = after[(rows[0]["rule_id"], rows[0]["subject_id"])]
    # dated after the accounts' date (31-12-2026), and applied to them
    assert (decided["review_status"], decided["reviewed_on"], decided["review_note"], decided["days_open"]) == \
        ("action_ordered", "2027-01-01", "Pound-keeper to explain in writing", "")
    still_open = [f for k, f in after.items() if k != (rows[0]["rule_id"], rows[0]["subject_id"])
                  and f["event_on"].startswith("2026-12")]
    assert all(f["review_status"] == "open" and int(f["days_open"]) > 0 for f in still_open)
    log = read(tmp_path / "after" / "finding_reviews.csv")
    assert [(r["rule_id"], r["decision"], r["finding_raised"], r["standing"]) for r in log] == \
        [(rows[0]["rule_id"], "action_ordered", "true", "in force")]


def test_a_review_whose_finding_is_no_longer_raised_stays_visible(tmp_path, run_cli, shared):
    kept = shared.run(GOLDEN, "2026-12-31", tmp_path / "run") / "pound.duckdb"      # the golden bundle ingested
    bundle = tmp_path / "b" / "registers"
    bundle.mkdir(parents=True)
    (bundle / "finding_reviews.csv").write_text(
        "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\n"
        "REL-UNPAID,R99,2026-10-01,DM,explained,a release since corrected\n", encoding="utf-8")
    assert run_cli("ingest", bundle.parent, "--db", kept)[0] == 0
    assert run_cli("build", "--db", kept, "--out", tmp_path / "out", "--as-of", "2026-12-31")[0] == 0
    log = read(tmp_path / "out" / "finding_reviews.csv")
    assert [(r["subject_id"], r["finding_raised"]) for r in log] == [("R99", "false")]


def test_register_text_that_looks_like_a_formula_is_written_as_text(tmp_path, monkeypatch):
    from pipeline.outputs import review_sheet

    texts = ['=HYPERLINK("http://x","y")', "+91 98450 00000", "-1+2", "@SUM(A1)"]
    rows = [{"rule_id": "DQ-X", "subject_id": s, "district": "Mysuru", "severity": "low", "section": "s.12",
             "event_on": dt.date(2026, 12, 1), "pound_id": "P1", "days_open": 1, "review_status": "open", "detail": t}
            for s, t in [*zip(texts, texts, strict=True), ("C1", "a plain note")]]
    monkeypatch.setattr(review_sheet, "open_findings", lambda con, month, district=None: rows)
    monkeypatch.setattr(review_sheet, "as_of", lambda con: dt.date(2026, 12, 31))
    monkeypatch.setattr(review_sheet, "stale_notice", lambda con: None)     # no database: nothing loaded since
    path = write_review_workbook(None, "2026-12", None, tmp_path / "review.xlsx")
    ws = load_workbook(path)["finding_reviews"]
    header = [c.value for c in ws[1]]
    for r, text in enumerate(texts, 2):
        for name in ("subject_id", "finding_detail"):
            cell = ws.cell(r, header.index(name) + 1)
            assert (cell.value, cell.data_type, cell.quotePrefix) == (text, "s", True)
    plain = ws.cell(len(texts) + 2, header.index("finding_detail") + 1)
    assert (plain.value, plain.quotePrefix) == ("a plain note", False)


def test_printed_a_finding_s_row_reads_from_its_top_line_and_its_subject_fits(tmp_path, shared):
    # the sample as of 30-11-2026: November's workbook holds DM-RECEIPT-OVERDUE H-2610-018:surplus, the
    # longest subject id (18 characters); printed, it spilled into reviewed_on, and a row's ids stood on
    # its bottom line while its detail began on the top one
    db = shared.run(Path(__file__).resolve().parents[2] / "data" / "sample", "2026-11-30") / "pound.duckdb"
    con = connect(db)
    try:
        path = write_review_workbook(con, "2026-11", None, tmp_path / "review_2026-11.xlsx")
    finally:
        con.close()
    ws = load_workbook(path)["finding_reviews"]
    header = [c.value for c in ws[1]]
    subjects = [row[header.index("subject_id")].value for row in ws.iter_rows(min_row=2)]
    assert "H-2610-018:surplus" in subjects
    width = ws.column_dimensions[ws.cell(1, header.index("subject_id") + 1).column_letter].width
    assert width >= max(len(s) for s in subjects) + 2
    assert {c.alignment.vertical for row in ws.iter_rows(min_row=2) for c in row} == {"top"}


def _two_findings(monkeypatch, stale=None):
    """A workbook's findings without a database: two, as open_findings gives them."""
    from pipeline.outputs import review_sheet

    rows = [{"rule_id": "REL-UNPAID", "subject_id": f"R{i}", "district": "Mysuru", "severity": "high",
             "section": "s.12", "event_on": dt.date(2026, 12, i), "pound_id": "P1", "days_open": None if i == 2 else 30,
             "review_status": "open", "detail": "Released without the fines paid."} for i in (1, 2)]
    monkeypatch.setattr(review_sheet, "open_findings", lambda con, month, district=None: rows)
    monkeypatch.setattr(review_sheet, "as_of", lambda con: dt.date(2026, 12, 31))
    monkeypatch.setattr(review_sheet, "stale_notice", lambda con: stale)


def test_the_decision_cells_offer_the_five_decisions_and_the_office_s_cells_are_shaded(tmp_path, monkeypatch):
    from pipeline.core.registers import DECISIONS

    _two_findings(monkeypatch)
    wb = load_workbook(write_review_workbook(None, "2026-12", None, tmp_path / "review.xlsx"))
    assert wb.sheetnames == ["finding_reviews", "how to fill in"] and wb.active.title == "finding_reviews"
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    (check,) = ws.data_validations.dataValidation
    assert (check.type, check.formula1, str(check.sqref), check.allow_blank, check.showErrorMessage) == \
        ("list", '"' + ",".join(DECISIONS) + '"', "E2:E3", True, True)
    assert check.error == "Choose one of: " + ", ".join(DECISIONS)
    shaded = {header[c.column - 1] for row in ws.iter_rows(min_row=2) for c in row if c.fill.fgColor.rgb == "FFFFF2CC"}
    assert shaded == {"reviewed_on", "decision", "note"}
    # a blank days_open is an empty cell, still reading from the top
    assert ws.cell(3, header.index("days_open") + 1).value is None
    assert ws.cell(3, header.index("days_open") + 1).alignment.vertical == "top"
    assert ws.freeze_panes == "A2" and ws.print_title_rows == "$1:$1"
    assert ws.page_setup.orientation == "landscape" and ws.page_setup.fitToWidth == 1


def test_when_files_were_loaded_after_the_figures_the_workbook_opens_on_the_help_saying_so(tmp_path, monkeypatch):
    _two_findings(monkeypatch, stale="note: files were loaded after these figures were built")
    wb = load_workbook(write_review_workbook(None, "2026-12", None, tmp_path / "review.xlsx"))
    assert wb.sheetnames == ["how to fill in", "finding_reviews"] and wb.active.title == "how to fill in"
    said = wb["how to fill in"]["A1"]
    assert said.value.startswith("note: files were loaded") and said.font.b and said.font.color.rgb == "FFC00000"


@pytest.mark.calc
def test_calc_marks_a_decision_not_of_the_five_invalid_and_passes_one_of_them(calc, tmp_path, monkeypatch):
    _two_findings(monkeypatch)
    path = write_review_workbook(None, "2026-12", None, tmp_path / "review.xlsx")
    said = calc.ask({"path": str(path), "cells": {"finding_reviews": [["E2", "text", "explained"], ["E3", "text", "approved"]]}})
    assert said == {"finding_reviews": [[4, 2]]}       # E3 (column 4, row 2 from 0) alone


def test_a_detail_with_characters_a_workbook_cannot_hold_comes_back_as_it_was(tmp_path, monkeypatch):
    # register text is loaded as it is: a stray control character, a carriage return or a typed
    # "_x0041_" in a finding's detail must come back through the workbook and the loader unchanged, or
    # the decision recorded on it would be taken as made on other figures (and reopened)
    from pipeline.load.sheets import cell_text
    from pipeline.outputs import review_sheet

    details = ["bell\x07 and tab\x0b of Rs 12", "line one\r\nline two 12", "typed _x0041_ and _x005F_ 12"]
    rows = [{"rule_id": "DQ-X", "subject_id": f"S{i}", "district": None, "severity": "low", "section": "s.12",
             "event_on": dt.date(2026, 12, 1), "pound_id": "P1", "days_open": 1, "review_status": "open",
             "detail": d} for i, d in enumerate(details)]
    monkeypatch.setattr(review_sheet, "open_findings", lambda con, month, district=None: rows)
    monkeypatch.setattr(review_sheet, "as_of", lambda con: dt.date(2026, 12, 31))
    monkeypatch.setattr(review_sheet, "stale_notice", lambda con: None)
    path = write_review_workbook(None, "2026-12", None, tmp_path / "review.xlsx")
    wb = load_workbook(path, read_only=True)            # as the loader reads a workbook (load/bundle.py)
    try:
        read = [[cell_text(v) for v in row] for row in wb["finding_reviews"].iter_rows(values_only=True)]
    finally:
        wb.close()
    assert [r[read[0].index("finding_detail")] for r in read[1:]] == details
