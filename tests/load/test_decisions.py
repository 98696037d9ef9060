"""The District Magistrate's decisions on findings, on the sample bundle (accounts to 30-11-2026):
made after the month and applied to it, refused only when dated after the day they are loaded;
tied to the figures they were made on (a correction that moves them reopens the finding, one of a
name does not); a row with no decision passed over and counted."""

from __future__ import annotations

import contextlib
import csv
import io
import shutil
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\n"
# R-0007's REL-NO-SECURITY (09-09-2026, no decision in the sample), decided at the meeting after November
AT_MEETING = "REL-NO-SECURITY,R-0007,{day},\"District Magistrate, Mysuru\",action_ordered,Take the security\n"
REL = ("release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
       "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n")
R6 = "R-0006,M-2609-004,04/09/2026,1,s12_payment,{to},{fines},400.00,,no,,yes,,{note}\n"


def bundle(tmp_path: Path, files: dict[str, str], toml: str | None = None) -> Path:
    b = tmp_path / "mysuru"
    shutil.copytree(ROOT / "data" / "sample", b)
    for rel, text in files.items():
        (b / rel).write_text(text, encoding="utf-8")
    if toml:
        (b / "bundle.toml").write_text(toml, encoding="utf-8")
    return b


def rows(path: Path) -> dict[tuple, dict]:
    with path.open(encoding="utf-8") as fh:
        return {(r["rule_id"], r["subject_id"]): r for r in csv.DictReader(fh)}


@pytest.fixture(autouse=True)
def the_day_after_the_meeting(monkeypatch):
    monkeypatch.setenv("POUND_LOAD_TIME", DAY_AFTER_THE_MEETING)


DAY_AFTER_THE_MEETING = "2026-12-04T10:00:00"
# R-0006's fines corrected to Rs 400.00 (the figures the order of 15-10-2026 was made on move)
FINES_400 = REL + R6.format(to="Mahadevappa (owner)", fines="400.00", note="Receipt book")


def fines_400_run(shared) -> tuple[Path, str]:
    """(the folder it wrote, what it printed) of `pound run` of the sample with FINES_400, loaded the day after the
    meeting, to 30-11-2026: made once for the session (tests/shared.py) and read only, as three tests
    run this very bundle."""
    def make(folder: Path) -> None:
        from pipeline.cli import main

        b = bundle(folder, {"registers/releases_2026-11_corrections.csv": FINES_400})
        out, err = io.StringIO(), io.StringIO()
        with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            mp.setenv("POUND_LOAD_TIME", DAY_AFTER_THE_MEETING)
            code = main(["run", str(b), "--out", str(folder / "out"), "--as-of", "2026-11-30"])
        assert code == 0, err.getvalue()
        (folder / "said.txt").write_text(out.getvalue(), encoding="utf-8")

    folder = shared.once("decisions-sample-r0006-fines-400", make)
    return folder / "out", (folder / "said.txt").read_text(encoding="utf-8")


def test_a_decision_made_after_the_month_is_applied_to_it(tmp_path, run_cli):
    b = bundle(tmp_path, {"registers/finding_reviews_2026-11.csv": HEADER + AT_MEETING.format(day="03/12/2026")})
    code, out, err = run_cli("run", b, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    found = rows(tmp_path / "out" / "findings.csv")[("REL-NO-SECURITY", "R-0007")]
    assert (found["review_status"], found["reviewed_on"], found["days_open"]) == ("action_ordered", "2026-12-03", "")
    # the sample's three decisions of 15-10-2026 and this one
    assert "decisions on findings: 4 applied, 0 superseded by a later one, 0 set aside" in out


def test_a_decision_dated_after_the_day_it_is_loaded_is_refused_with_its_row(tmp_path, run_cli):
    # the twin: dated 05-12-2026, loaded on 04-12-2026
    b = bundle(tmp_path, {"registers/finding_reviews_2026-11.csv": HEADER + AT_MEETING.format(day="05/12/2026")})
    code, _, err = run_cli("run", b, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 2
    assert ("registers/finding_reviews_2026-11.csv, row 2, column reviewed_on: '05-12-2026' is after 04-12-2026, "
            "the day it is loaded: a decision cannot be recorded before it is made") in err
    assert "Traceback" not in err


def test_a_decision_dated_after_the_bundle_s_own_date_is_refused(tmp_path, run_cli):
    b = bundle(tmp_path, {"registers/finding_reviews_2026-11.csv": HEADER + AT_MEETING.format(day="03/12/2026")},
               toml="as_of = 2026-12-02\n")
    code, _, err = run_cli("run", b, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 2 and "'03-12-2026' is after 02-12-2026, the bundle's own date (bundle.toml as_of)" in err


def ingested_at_the_meeting(shared, tmp_path) -> Path:
    """A copy of the database `pound ingest` (no --as-of) makes of the sample with the decision of the
    meeting of 03-12-2026 (AT_MEETING), loaded the day after: the ingest made once for the session
    (tests/shared.py; it stops there unless the ingest exits 0)."""
    def make(folder: Path) -> None:
        from shared import quietly

        from pipeline.cli import main

        b = bundle(folder, {"registers/finding_reviews_2026-11.csv": HEADER + AT_MEETING.format(day="03/12/2026")})
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("POUND_LOAD_TIME", DAY_AFTER_THE_MEETING)
            code, said = quietly(main, ["ingest", str(b), "--db", str(folder / "pound.duckdb")])
        assert code == 0, said

    db = tmp_path / "pound.duckdb"
    shutil.copyfile(shared.once("decisions-sample-at-the-meeting-ingested", make) / "pound.duckdb", db)
    return db


def test_ingest_without_as_of_then_a_build_to_the_month_keeps_the_decision(tmp_path, run_cli, shared):
    """The issue's second way in: the decision loaded by pound ingest, the accounts built to 30-11."""
    db = ingested_at_the_meeting(shared, tmp_path)          # `pound ingest` of the sample with the decision
    code, out, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    assert rows(tmp_path / "out" / "findings.csv")[("REL-NO-SECURITY", "R-0007")]["review_status"] == "action_ordered"
    assert "4 applied" in out


def test_a_decision_held_dated_after_its_load_day_is_set_aside_and_said(tmp_path, run_cli, shared):
    """A database loaded before the load refused such rows: the build sets the decision aside, and says so."""
    db = ingested_at_the_meeting(shared, tmp_path)          # `pound ingest` of the sample with the decision
    con = duckdb.connect(str(db))
    con.execute("UPDATE loads SET loaded_at = TIMESTAMP '2026-12-01 09:00:00' WHERE file LIKE '%finding_reviews_2026-11%'")
    con.close()
    code, out, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    assert "3 applied, 0 superseded by a later one, 1 set aside (1 dated after the day they were loaded" in out
    assert rows(tmp_path / "out" / "findings.csv")[("REL-NO-SECURITY", "R-0007")]["review_status"] == "open"
    assert rows(tmp_path / "out" / "finding_reviews.csv")[("REL-NO-SECURITY", "R-0007")]["standing"] == \
        "dated after its load day"


@pytest.mark.parametrize("fines, to, reopened", [("400.00", "Mahadevappa (owner)", True),
                                                 ("600.00", "Mahadevappa K (owner)", False)],
                         ids=["amount-reopens", "name-does-not"])
def test_a_correction_that_moves_the_figures_reopens_the_decision(tmp_path, run_cli, shared, fines, to, reopened):
    """The sample's order of 15-10-2026 on REL-UNPAID R-0006: Rs 600.00 fines and Rs 600.00 feeding due,
    Rs 600.00 and Rs 400.00 paid, short by Rs 200.00. Corrected to Rs 400.00 of fines paid (loaded on
    04-12-2026, after the order), it is short by 200 + 200 = Rs 400.00: the figures the order was made
    on moved, and the finding waits for a fresh decision. Its twin corrects only the name of whom the
    cattle went to: the order stands."""
    fix = REL + R6.format(to=to, fines=fines, note="Receipt book")
    if fix == FINES_400:            # this very bundle's run is the session's (it stops there unless it exits 0)
        made, out = fines_400_run(shared)
    else:
        b = bundle(tmp_path, {"registers/releases_2026-11_corrections.csv": fix})
        code, out, err = run_cli("run", b, "--out", tmp_path / "out", "--as-of", "2026-11-30")
        assert code == 0, err
        made = tmp_path / "out"
    finding = rows(made / "findings.csv")[("REL-UNPAID", "R-0006")]
    log = rows(made / "finding_reviews.csv")[("REL-UNPAID", "R-0006")]
    if reopened:
        assert "short by Rs 400.00" in finding["detail"]
        assert (finding["review_status"], finding["reviewed_on"]) == ("reopened", "2026-10-15")
        assert finding["days_open"] == "87"          # 04-09 to 30-11: 26 + 31 + 30
        assert log["standing"] == "made on other figures" and log["decision"] == "action_ordered"
        assert "1 set aside (1 made on other figures, the finding reopened" in out
    else:
        assert "short by Rs 200.00" in finding["detail"]
        assert finding["review_status"] == "action_ordered" and log["standing"] == "in force"
        assert "0 set aside" in out


@pytest.mark.parametrize("moved", [True, False], ids=["figures-moved", "figures-as-decided"])
def test_a_decision_recorded_with_the_finding_s_detail_holds_to_its_figures(tmp_path, run_cli, shared, moved):
    """A decision with finding_detail (as the review workbook writes it) is compared with the finding's
    figures now, whenever the correction was loaded: Rs 200.00 decided, Rs 400.00 now, reopened; the
    twin, decided on the detail as it reads now, holds."""
    fix = FINES_400
    first, _ = fines_400_run(shared)            # the session's run of the correction alone (it exits 0)
    now = rows(first / "findings.csv")[("REL-UNPAID", "R-0006")]["detail"]
    decided = now.replace("short by Rs 400.00", "short by Rs 200.00") if moved else now
    review = ("rule_id,subject_id,reviewed_on,reviewed_by,decision,note,finding_detail\n"
              f'REL-UNPAID,R-0006,03/12/2026,DM,accepted,Recovered,"{decided}"\n')
    b = bundle(tmp_path, {"registers/releases_2026-11_corrections.csv": fix,
                          "registers/finding_reviews_2026-12.csv": review})
    code, out, err = run_cli("run", b, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    finding = rows(tmp_path / "out" / "findings.csv")[("REL-UNPAID", "R-0006")]
    assert finding["review_status"] == ("reopened" if moved else "accepted")


def test_figures_leave_out_days_and_names():
    """What ties a decision to a finding: its sums and counts, not its days (a detail may say "still in the
    pound on" the as-of date) nor the words (a name corrected)."""
    from pipeline.core.paths import SQL_DIR

    con = duckdb.connect()
    con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    same = con.execute("SELECT figures_of(?) = figures_of(?)",
                       ["Owner Shivanna K. paid Rs 1,200.00 of Rs 1,800.00 on 04-09-2026, still held on 30-11-2026",
                        "Owner Shivanna paid Rs 1,200.00 of Rs 1,800.00 on 04-09-2026, still held on 31-12-2026"]).fetchone()[0]
    moved = con.execute("SELECT figures_of(?) = figures_of(?)",
                        ["paid Rs 1,200.00 of Rs 1,800.00", "paid Rs 1,000.00 of Rs 1,800.00"]).fetchone()[0]
    assert same and not moved


def test_a_blank_decision_is_passed_over_and_a_bad_one_refused(tmp_path, run_cli):
    blank = HEADER + AT_MEETING.format(day="03/12/2026") + "REL-UNPAID,R-0006,,\"District Magistrate, Mysuru\",,\n" \
        "S15-REPORT-MISSING,H-2610-019,,DM,,\n"
    b = bundle(tmp_path / "a", {"registers/finding_reviews_2026-11.csv": blank})
    code, out, err = run_cli("run", b, "--out", tmp_path / "a" / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    assert ("registers/finding_reviews_2026-11.csv: 2 finding(s) left undecided (no decision written): "
            "passed over") in err
    assert "4 applied" in out
    # the twin: a decision written, but not one of the five: the file is refused, saying where
    bad = HEADER + AT_MEETING.format(day="03/12/2026").replace("action_ordered", "ignored")
    b = bundle(tmp_path / "b", {"registers/finding_reviews_2026-11.csv": bad})
    code, _, err = run_cli("run", b, "--out", tmp_path / "b" / "out", "--as-of", "2026-11-30")
    assert code == 2
    assert "registers/finding_reviews_2026-11.csv, row 2, column decision: 'ignored' is not one of the allowed values" in err
