"""The README's month walk-through ("A month in a district office, end to end") run as written, on a
copy of the sample bundle: every command of its block, in order, the decisions of the meeting of
03-12-2026 filled into the review workbook as step 3 says, and the lines the README shows printed."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.notebook]        # pound report and pound close render the report notebooks

CORRECTION = (
    "release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
    "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n"
    "R-0006,M-2609-004,04/09/2026,1,s12_payment,Mahadevappa (owner),400.00,400.00,,no,,yes,,"
    "Receipt book shows Rs 400; 600 was written in error\n")


def walk_through() -> tuple[list[list[str]], list[str]]:
    """The commands of the section's first block (a line ending in a backslash continued), each
    with the comment lines above it, and the lines of its second block (what step 3 prints)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## A month in a district office, end to end", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, flags=re.S)
    commands, pending = [], ""
    for line in blocks[0].splitlines():
        if pending or line.startswith("pound "):
            pending += line.rstrip("\\").strip() + " "
            if not line.endswith("\\"):
                commands.append(shlex.split(pending)[1:])
                pending = ""
    return commands, [ln for ln in blocks[1].splitlines() if ln.strip()]


def decide_four(path: Path, into: Path) -> list[tuple]:
    """Step 3: four of the rows decided at the meeting of 03-12-2026, the others left blank."""
    wb = load_workbook(path)
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    # the sample's six findings waiting, with the three credits and receipts overdue (R16, R17),
    # M-2608-003's surplus credited before the DM's six months ended (R21) and N-2610-013's remainder
    # delivered without the declaration (R-0012, R28), N-2610-014's sale never proclaimed at the market place
    # and the two auctions held a day before the owner's days from the proclamation ran out (R25)
    assert ws.max_row - 1 == 14, "the walk-through speaks of fourteen findings"
    decided = []
    for r in range(2, 6):
        ws.cell(r, header.index("reviewed_on") + 1, dt.datetime(2026, 12, 3))
        ws.cell(r, header.index("decision") + 1, "action_ordered")
        ws.cell(r, header.index("note") + 1, "Ordered at the monthly meeting")
        decided.append((ws.cell(r, 1).value, ws.cell(r, 2).value))
    wb.save(into)
    return decided


def test_the_readme_month_walk_through_runs_as_written(tmp_path, run_cli, monkeypatch):
    commands, shown = walk_through()
    assert [c[0] for c in commands] == ["template", "month", "month", "close", "close", "verify", "month"]
    shutil.copytree(ROOT / "data" / "sample", tmp_path / "mysuru")
    monkeypatch.chdir(tmp_path)
    # the files are loaded on 04-12-2026, the day after the meeting
    monkeypatch.setenv("POUND_LOAD_TIME", "2026-12-04T10:00:00")
    results = []
    for i, args in enumerate(commands):
        if i == 2:          # step 2: the workbook of step 1, filled in and saved into the bundle
            decided = decide_four(tmp_path / "reports" / "2026-11" / "review_2026-11.xlsx",
                                  tmp_path / "mysuru" / "registers" / "review_2026-11.xlsx")
            refused_before_the_build(tmp_path, run_cli, monkeypatch)
        if i == 4:          # step 3: the page signed at the meeting, scanned
            (tmp_path / "signed_2026-11.pdf").write_bytes(b"%PDF-1.4 the page signed\n")
        if i == 6:          # step 4: the README's correction of R-0006 arrives with December
            (tmp_path / "mysuru" / "registers" / "releases_2026-11_corrections.csv").write_text(CORRECTION,
                                                                                               encoding="utf-8")
        code, out, err = run_cli(*args)
        assert code == 0, f"pound {' '.join(args)}: {err}"
        results.append(out + err)
        if i == 2:          # step 2's build: the decisions dated after the accounts' date are applied
            with (tmp_path / "reports" / "2026-11" / "exports" / "findings.csv").open(encoding="utf-8") as fh:
                findings = {(r["rule_id"], r["subject_id"]): r for r in csv.DictReader(fh)}
            assert [(findings[k]["review_status"], findings[k]["reviewed_on"]) for k in decided] == \
                [("action_ordered", "2026-12-03")] * 4
    assert (tmp_path / "registers_2026-11_P01.xlsx").is_file()       # step 0: the pound-keeper's workbook
    for line in shown:
        assert line in results[2], f"the README shows {line!r}; step 2 printed:\n{results[2]}"
    # step 1's page 1 is a draft; the close's page carries the close's own figures id (the whole
    # record sealed), beside it the draft figures id step 2 printed, and says what moved since the
    # page of step 1
    first = re.search(r"figures id ([0-9a-f]{8})", results[1])[1]
    printed = re.search(r"figures id ([0-9a-f]{8})", results[2])[1]
    sealed = re.search(r"figures id ([0-9a-f]{16}); the page to sign: (\S+)", results[3])
    assert printed != first and sealed[1] not in (printed, first)
    assert "DRAFT for the meeting" in (tmp_path / "reports" / "2026-11" / "monthly_review_2026-11.html").read_text(
        encoding="utf-8")
    folder = tmp_path / "mysuru" / "closes" / "2026-11"
    assert sealed[2] == str((folder / "monthly_review_2026-11.pdf").resolve()) or sealed[2].endswith(
        "monthly_review_2026-11.pdf")
    page = (folder / "monthly_review_2026-11.html").read_text(encoding="utf-8")
    assert f'data-param="Figures id">{sealed[1]}<' in page and "DRAFT" not in page
    assert f'data-param="Draft figures id">{printed}, as on a draft' in page
    # the close made to look like one of the first format (its id of page 1 alone): the page it sealed says otherwise
    copy = tmp_path / "downgraded"
    shutil.copytree(folder, copy)
    record = json.loads((copy / "close.json").read_text(encoding="utf-8"))
    del record["data_files"]
    record.update(format="pound-close/1", figures_id=record.pop("page_one_id"))
    (copy / "close.json").write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run_cli("verify", copy)
    assert code == 2 and f"{copy}: altered: close.json (it says format pound-close/1, but the sealed " in err
    assert "decision file(s) loaded since" in results[3]
    assert (folder / "signed_page.pdf").is_file()
    assert "intact (the input files rebuild the sealed figures)" in results[5]
    # step 4: the correction moves REL-UNPAID R-0006 (short by Rs 400.00, not Rs 200.00): reopened
    assert "1 set aside (1 made on other figures, the finding reopened" in results[6]
    log = (tmp_path / "reports" / "2026-12" / "exports" / "finding_reviews.csv").read_text(encoding="utf-8")
    assert re.search(r"^REL-UNPAID,R-0006,2026-10-15,.*,made on other figures,", log, flags=re.M)
    page = (tmp_path / "reports" / "2026-12" / "monthly_review_2026-12.html").read_text(encoding="utf-8")
    reopened = page.split('id="reopened"', 1)[1].split("</table>", 1)[0]
    assert "REL-UNPAID" in reopened and "R-0006" in reopened


def refused_before_the_build(tmp_path, run_cli, monkeypatch):
    """The office folder as it stands at step 2, copied: the decisions loaded with pound ingest and
    not built, the close is refused (exit 2) naming the file; built, it is made."""
    side = tmp_path.parent / (tmp_path.name + "-side")
    shutil.copytree(tmp_path, side)
    monkeypatch.chdir(side)
    try:
        code, _, err = run_cli("ingest", "mysuru", "--db", "pound.duckdb")
        assert code == 0, err
        code, out, err = run_cli("close", "--db", "pound.duckdb", "--month", "2026-11", "--by", "DM",
                                 "--bundle", "mysuru")
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert "registers/review_2026-11.xlsx [sheet finding_reviews]" in err and "pound build" in err
        assert not (side / "mysuru" / "closes").exists()
    finally:
        monkeypatch.chdir(tmp_path)
        shutil.rmtree(side, ignore_errors=True)
