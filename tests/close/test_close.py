"""Month close on the golden bundle: pound close seals a month, pound verify checks the seal, and
every later change to a closed month shows in adjustments.csv with its causes.

The golden bundle, accounts drawn up to 31-12-2026. November 2026 at pound PA: G12 (2 cattle
impounded 02-11-2026), one head released by R12 on 03-11-2026 on payment of Rs 600.00 fines
(1 head x Rs 600) and Rs 300.00 feeding; the fine is due to local authority LA1's fund (s.18(2)).
Pound PB impounded nothing in November.

After the close, the office loads (a) R12 again with fines_paid 500 and a correction note, and
(b) a late impoundment G99 (1 head, pound PB, 15-11-2026), and (c) a correction of R02 (July).
By hand, November then moves:
  PA fines_received  600.00 -> 500.00 (-100.00)   cause: the R12 correction
  PA local_fund_due  600.00 -> 500.00 (-100.00)   cause: the R12 correction
  PA findings 0 -> 1, findings_high 0 -> 1, finding REL-UNPAID R12 raised (Rs 100 of the fine unpaid)
  PB heads_impounded, heads_end, heads_moved, cases_impounded 0 -> 1, findings 0 -> 1, finding
     S15-REPORT-MISSING G99 raised (no police report)   cause: the late entry G99
October's own figures (closed too) and July's (the R02 correction; not closed) do not move. Page 1 of
each close (R14) does: it counts every finding waiting up to its month, and R02 short by Rs 50 raises
REL-UNPAID R02 (high) of 13-07-2026, waiting on the close's as-of date, 31-12-2026, for
18 (13-07 to 31-07) + 31 + 30 + 31 + 30 + 31 = 171 days, the oldest (sealed: 142, G05's auction SA1 of
11-08-2026, a day early: R25). So October's page: high waiting 1 -> 2, oldest 142 -> 171; November's: high
waiting 2 -> 4 (R02, R12), of the month high 1 -> 2 (R12), medium waiting 3 -> 4 and of the month 2 -> 3
(G99), oldest 142 -> 171; cause: the files loaded since the close. (The high findings waiting when they were
closed are G05's surplus credited before the DM's six months ended, DM-SURPLUS-CREDITED-EARLY of 31-10-2026:
R21, and, for November, G12's head left in the pound, HEADS-LEFT-IN-POUND of 10-11-2026: R26.)

The reports are rendered by a stand-in (three small pages) except in the one slow test: the
close's own work is what is tested here; the reports have their own tests.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from helpers import fake_reports  # noqa: F401  (the other close tests import it from here)

from pipeline.close import seal

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bundle"
AS_OF = "2026-12-31"
R12_FIX = ("release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
           "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n"
           "R12,G12,2026-11-03,1,s12_payment,Owner K,500,300,,no,,yes,,receipt re-read: Rs 500\n"
           "R02,G02,2026-07-13,1,s12_payment,Owner B,550,600,,no,,yes,,July receipt re-read\n")
G99 = ("case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,head_count,"
       "description,owner_id,owner_name,owner_village\n"
       "G99,PB,2026-11-15,2026-11-15,,,,cattle,1,,Z,Owner Z,\n")
CORRECTION = "correction registers/releases_fix.csv row 2 (releases R12: fines_paid 600.00 -> 500.00; receipt re-read: Rs 500)"
LATE = "late entry registers/impoundments_late.csv row 2 (impoundments G99, dated 15-11-2026)"


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def fresh(shared, root: Path) -> tuple[Path, Path]:
    """The golden bundle copied to root/bundle and run to root/out.

    The run is a copy of the session's run of the golden bundle (tests/shared.py), told where its
    bundle now is, as a run from root/bundle writes it: its full path in loads.bundle (and its staged
    copy), and where the database finds it, beside its folder, in loads.bundle_at."""
    bundle = root / "bundle"
    shutil.copytree(GOLDEN, bundle)
    db = shared.run(GOLDEN, AS_OF, root / "out") / "pound.duckdb"
    con = duckdb.connect(str(db))
    try:
        for table in ("loads", "stg_loads"):
            con.execute(f"UPDATE {table} SET bundle = ?", [str(bundle.resolve())])
        con.execute("UPDATE loads SET bundle_at = '../bundle'")
    finally:
        con.close()
    return bundle, db




def test_close_json_holds_who_when_inputs_figures_and_every_file(closed):
    bundle, _ = closed
    folder = bundle / "closes" / "2026-11"
    c = json.loads((folder / "close.json").read_text(encoding="utf-8"))
    assert (c["month"], c["district"], c["closed_by"], c["note"], c["as_of"]) == \
        ("2026-11", None, "DM Dist", "reviewed in the monthly meeting", AS_OF)
    assert c["tool_version"] and c["parameters"]["as_of"] == AS_OF and "reconciliation_lag" in c["parameters"]
    inputs = {f["file"]: f for f in c["inputs"]}
    assert inputs["registers/releases.csv"]["rows"] == 12
    assert inputs["registers/releases.csv"]["sha256"] == seal.sha256(bundle / "registers" / "releases.csv")
    pa = next(r for r in c["figures"]["accounts"] if r["pound_id"] == "PA")
    assert (pa["fines_received"], pa["local_fund_due"], pa["heads_impounded"], pa["heads_released"]) == (60000, 60000, 2, 1)
    # November's findings: the local fund credits overdue of G10 and G09 (R16; tests/golden/expected/findings.csv)
    # (G12's HEADS-LEFT-IN-POUND of 10-11-2026, R26, among them)
    assert sorted(f["subject_id"] for f in c["figures"]["findings"]) == ["G09:fines", "G10:fines", "G12"]
    assert {r["reference"] for r in c["figures"]["reconciliation"]} >= {"G12"}
    files = sorted(p.name for p in folder.iterdir() if p.name != "close.json")
    assert files == ["findings.csv", "monthly_accounts.csv", "monthly_review_2026-11.html",
                     "monthly_review_2026-11.pdf", "reconciliation.csv",
                     "reconciliation_2026-11.html", "review_2026-11.xlsx", "trends_2026-11.html"]
    assert c["files"] == {name: seal.sha256(folder / name) for name in files}
    assert [r["month"] for r in read(folder / "monthly_accounts.csv")] == ["2026-11", "2026-11"]
    # the sealed review says who closed the month and when, though the database holds no close yet
    day, time = c["closed_at"].split(" ")
    y, m, d = day.split("-")
    assert f"closed: yes, by DM Dist on {d}-{m}-{y} {time[:5]}: this copy is the one sealed in the close" in \
        (folder / "monthly_review_2026-11.html").read_text(encoding="utf-8")


def test_verify_intact_and_names_a_file_altered_missing_or_added(closed, run_cli, tmp_path):
    bundle, _ = closed
    code, out, _ = run_cli("verify", bundle / "closes" / "2026-11")
    assert code == 0 and "intact" in out
    # without --bundle it says what it checked, and what it did not: "intact" is not "all clear"
    assert "checked the sealed pack only" in out and "The registers were not checked: --bundle BUNDLE" in out
    copy = tmp_path / "2026-11"
    shutil.copytree(bundle / "closes" / "2026-11", copy)
    page = copy / "reconciliation_2026-11.html"
    data = bytearray(page.read_bytes())
    data[10] ^= 1                                      # one byte
    page.write_bytes(bytes(data))
    code, _, err = run_cli("verify", copy)
    assert code == 2 and err.strip().splitlines() == [f"{copy}: altered: reconciliation_2026-11.html"]
    (copy / "findings.csv").unlink()
    (copy / "notes.txt").write_text("x", encoding="utf-8")
    code, _, err = run_cli("verify", copy)
    assert code == 2
    assert err.strip().splitlines() == [f"{copy}: altered: reconciliation_2026-11.html", f"{copy}: missing: findings.csv",
                                        f"{copy}: added: notes.txt"]


def test_verify_with_the_bundle_rebuilds_the_sealed_figures(closed, run_cli):
    bundle, _ = closed
    code, out, err = run_cli("verify", bundle / "closes" / "2026-11", "--bundle", bundle)
    assert code == 0, err
    assert "intact (the input files rebuild the sealed figures)" in out
    assert "sealed pack only" not in out


def test_verify_without_the_bundle_says_intact_of_the_pack_while_the_bundle_says_a_register_moved(closed, run_cli,
                                                                                                  tmp_path):
    """A register edited since the close: verify on the folder alone checks the sealed pack, which is
    as sealed (exit 0, saying it checked only that); with the bundle it names the input changed (exit 2)."""
    bundle, _ = closed
    copy = tmp_path / "bundle"
    shutil.copytree(bundle, copy)
    releases = copy / "registers" / "releases.csv"
    releases.write_text(releases.read_text(encoding="utf-8").replace(",600,300,", ",400,300,", 1), encoding="utf-8")
    code, out, _ = run_cli("verify", copy / "closes" / "2026-11")
    assert code == 0 and "checked the sealed pack only" in out
    code, _, err = run_cli("verify", copy / "closes" / "2026-11", "--bundle", copy)
    assert code == 2 and "input changed since the close: registers/releases.csv" in err


@pytest.mark.parametrize("args, message", [
    (("--month", "2027-01"), "cannot close 2027-01: its last day, 31-01-2027, is after 31-12-2026"),
    (("--month", "2025-01"), "cannot close 2025-01: nothing was impounded, paid, due or found in it"),
    (("--month", "2026-11"), "2026-11 was closed by DM Dist on"),
    (("--month", "2026-09", "--reopen", "why"), "--reopen: 2026-09 has not been closed"),
])
def test_close_refuses_with_one_line_and_writes_nothing(closed, run_cli, fake, args, message):
    bundle, db = closed
    before = sorted(p.name for p in (bundle / "closes").iterdir())
    code, out, err = run_cli("close", "--db", db, "--by", "DM", "--bundle", bundle, *args)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert sorted(p.name for p in (bundle / "closes").iterdir()) == before


@pytest.mark.parametrize("today, refused", [("2026-12-31", True), ("2027-01-01", False)])
def test_a_month_not_over_by_the_clock_is_not_closed(shared, tmp_path, fake, today, refused):
    # the accounts are drawn up to 31-12-2026; December may be closed from 1 January, not on its last day
    import datetime as dt

    from pipeline.core.errors import PoundError

    bundle, db = fresh(shared, tmp_path)
    now = dt.datetime.fromisoformat(today + "T10:00:00")
    if refused:
        with pytest.raises(PoundError, match=r"cannot close 2026-12: it is not over yet \(its last day is 31-12-2026, "
                                             r"today is 31-12-2026\)"):
            seal.close_month(db, bundle, "2026-12", "DM Dist", now=now)
        assert not (bundle / "closes").exists() or not any((bundle / "closes").iterdir())
    else:
        assert seal.close_month(db, bundle, "2026-12", "DM Dist", now=now).name == "2026-12"


def test_a_correction_is_a_cause_only_of_its_own_pounds_figures(closed, run_cli, fake, tmp_path):
    # after November's close (and October's: conftest.py `closed`, the session's closes copied): R12
    # (PA's release) and the ledger entry E06 (LA2's credit for G05, a case of PB) are corrected; each
    # is named against its own pound's figures, never the other's
    bundle, db = closed
    (bundle / "registers" / "releases_fix.csv").write_text(R12_FIX.splitlines()[0] + "\n" + R12_FIX.splitlines()[1]
                                                           + "\n", encoding="utf-8")
    (bundle / "ledgers" / "local_fund_fix.csv").write_text(
        "entry_id,local_authority_id,entry_on,amount,reference,head,correction_note\n"
        "E06,LA2,2026-11-01,2900,G05,surplus,bank statement shows Rs 2900\n", encoding="utf-8")
    assert run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)[0] == 0
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err
    rows = read(tmp_path / "out" / "adjustments.csv")
    by_pound = {p: " ".join(r["causes"] for r in rows if r["pound_id"] == p) for p in ("PA", "PB")}
    assert "releases R12" in by_pound["PA"] and "local_fund E06" not in by_pound["PA"]
    assert "local_fund E06" in by_pound["PB"] and "releases R12" not in by_pound["PB"]
    assert ("2026-11", "all", "PB", "local_fund_ledger", "3000.00", "2900.00", "-100.00") in \
        {(r["month"], r["district"], r["pound_id"], r["measure"], r["closed_value"], r["current_value"], r["difference"])
         for r in rows}
    # the reconciliation page of LA2 lists PB's changes, and none of PA's
    from pipeline.read.database import connect
    from pipeline.reports import review

    con = connect(db)
    try:
        assert set(review.changes_to_closed_months(con, "2026-11", None, "LA2")["pound_id"]) == {"PB"}
        # page 1's figures are of the district (here of all): they name no pound
        assert set(review.changes_to_closed_months(con, "2026-11")["pound_id"].dropna()) == {"PA", "PB"}
    finally:
        con.close()
    # the auditor's workbook of LA2's year holds PB's changes, and none of PA's
    from openpyxl import load_workbook

    code, _, err = run_cli("workbook", "--db", db, "--local-authority", "LA2", "--financial-year", "2026-27",
                           "--out", tmp_path / "LA2.xlsx")
    assert code == 0, err
    sheet = list(load_workbook(tmp_path / "LA2.xlsx")["adjustments"].iter_rows(values_only=True))
    assert sheet[0][:4] == ("month", "pound_id", "measure", "rule_id")
    assert {r[1] for r in sheet[1:] if r[0]} == {"PB"}
    assert ("2026-11", "PB", "local_fund_ledger") in {r[:3] for r in sheet[1:]}


def test_close_refuses_a_bundle_the_database_was_not_loaded_from(closed, run_cli, fake, tmp_path):
    _, db = closed
    other = tmp_path / "other"
    shutil.copytree(GOLDEN, other)
    # a copy holding every file loaded is the office's folder moved (test_one_truth.py); one that
    # lacks a file loaded is another bundle
    (other / "registers" / "releases.csv").unlink()
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", other)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "is not a bundle the database" in err
    assert f"Close with the database beside this bundle, or make one of it (pound run {other.resolve()} --out " \
           "FOLDER)" in err
    assert not (other / "closes").exists()


def test_later_changes_to_a_closed_month_show_as_adjustments(closed, run_cli, fake, tmp_path):
    # October and November closed by "DM Dist" (conftest.py `closed`: the session's closes, copied)
    bundle, db = closed
    assert sorted(p.name for p in (bundle / "closes").iterdir()) == ["2026-10", "2026-11"]
    (bundle / "registers" / "releases_fix.csv").write_text(R12_FIX, encoding="utf-8")
    (bundle / "registers" / "impoundments_late.csv").write_text(G99, encoding="utf-8")
    # the kept database: ingest the new files, build
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)
    assert code == 0, err
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "kept", "--as-of", AS_OF)
    assert code == 0, err
    got = [(r["month"], r["district"], r["pound_id"], r["measure"], r["closed_value"], r["current_value"],
            r["difference"], r["rule_id"], r["subject_id"], r["causes"]) for r in read(tmp_path / "kept" / "adjustments.csv")]
    both = "loaded since the close: registers/impoundments_late.csv; loaded since the close: registers/releases_fix.csv"
    assert got == [
        # page 1 of October: REL-UNPAID R02 of July, raised by its correction, waits 171 days
        # (the oldest when closed: G05's auction SA1 of 11-08-2026, a day early, R25: 142 days)
        ("2026-10", "all", "", "page1_oldest_days", "142", "171", "29", "", "", both),
        # (G05's DM-SURPLUS-CREDITED-EARLY of 31-10-2026, high, was waiting when each month was closed: R21)
        ("2026-10", "all", "", "page1_waiting_high", "1", "2", "1", "", "", both),
        ("2026-11", "all", "PA", "finding_raised_after_close", "0", "1", "1", "REL-UNPAID", "R12", CORRECTION),
        # November held G10's LF-CREDIT-OVERDUE at PA and G09's at PB when it was closed
        # (and G12's HEADS-LEFT-IN-POUND at PA, high: R26)
        ("2026-11", "all", "PA", "findings", "2", "3", "1", "", "", CORRECTION),
        ("2026-11", "all", "PA", "findings_high", "1", "2", "1", "", "", CORRECTION),
        ("2026-11", "all", "PA", "fines_received", "600.00", "500.00", "-100.00", "", "", CORRECTION),
        ("2026-11", "all", "PA", "local_fund_due", "600.00", "500.00", "-100.00", "", "", CORRECTION),
        # the sealed G12 fines row matched (0.00); the local fund's 600 now meets 500 expected: a new break
        ("2026-11", "all", "PA", "reconciliation local_fund fines", "0.00", "100.00", "100.00", "", "G12", CORRECTION),
        ("2026-11", "all", "PB", "cases_impounded", "0", "1", "1", "", "", LATE),
        ("2026-11", "all", "PB", "finding_raised_after_close", "0", "1", "1", "S15-REPORT-MISSING", "G99", LATE),
        ("2026-11", "all", "PB", "findings", "1", "2", "1", "", "", LATE),
        ("2026-11", "all", "PB", "heads_end", "0", "1", "1", "", "", LATE),
        ("2026-11", "all", "PB", "heads_impounded", "0", "1", "1", "", "", LATE),
        ("2026-11", "all", "PB", "heads_moved", "0", "1", "1", "", "", LATE),
        # page 1 of November: R12 (high) and G99 (medium) of the month, R02 (high) of July
        ("2026-11", "all", "", "page1_of_month_high", "1", "2", "1", "", "", both),
        ("2026-11", "all", "", "page1_of_month_medium", "2", "3", "1", "", "", both),
        ("2026-11", "all", "", "page1_oldest_days", "142", "171", "29", "", "", both),
        ("2026-11", "all", "", "page1_waiting_high", "2", "4", "2", "", "", both),
        ("2026-11", "all", "", "page1_waiting_medium", "3", "4", "1", "", "", both),
    ]
    # the pages show them as they write every amount, and each measure in words
    from pipeline.read.database import connect
    from pipeline.reports import review

    con = connect(db)
    try:
        shown = review.changes_to_closed_months(con, "2026-11").set_index(["pound_id", "measure", "rule_id"])
    finally:
        con.close()
    assert tuple(shown.loc[("PA", "fines_received", None), ["closed_shown", "current_shown", "difference_shown"]]) == \
        ("600.00", "500.00", "-100.00")
    assert tuple(shown.loc[("PB", "heads_end", None), ["closed_shown", "current_shown", "difference_shown"]]) == ("0", "1", "1")
    assert set(shown.index.get_level_values("measure")) <= set(review.MEASURE_WORDS)
    # a fresh run of the bundle knows its closes and gives the same adjustments
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "fresh", "--as-of", AS_OF)
    assert code == 0, err
    assert (tmp_path / "fresh" / "adjustments.csv").read_bytes() == (tmp_path / "kept" / "adjustments.csv").read_bytes()
    # the sealed close is untouched by what came after it
    code, _, _ = run_cli("verify", bundle / "closes" / "2026-11")
    assert code == 0
    # closed again, with the reason: both closes are kept and the later one is in force
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM Dist", "--bundle", bundle,
                           "--reopen", "R12 receipt re-read")
    assert code == 0, err
    assert sorted(p.name for p in (bundle / "closes").iterdir()) == ["2026-10", "2026-11", "2026-11_r2"]
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "after", "--as-of", AS_OF)
    assert code == 0, err
    # November sealed again moved nothing; October, not closed again, keeps its page 1's two
    assert [(r["month"], r["measure"]) for r in read(tmp_path / "after" / "adjustments.csv")] == [
        ("2026-10", "page1_oldest_days"), ("2026-10", "page1_waiting_high")]


def test_a_change_to_a_month_not_closed_moves_only_the_page_one_of_the_close(run_cli, fake, tmp_path, shared):
    bundle, db = fresh(shared, tmp_path)
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM Dist", "--bundle", bundle)
    assert code == 0, err
    (bundle / "registers" / "releases_fix.csv").write_text(R12_FIX.splitlines()[0] + "\n" + R12_FIX.splitlines()[2] + "\n",
                                                           encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)
    assert code == 0, err
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err
    corrections = read(tmp_path / "out" / "corrections.csv")
    assert [(c["key"], c["field"], c["event_month"]) for c in corrections] == [("R02", "fines_paid", "2026-07")]
    # no figure of November's own moves; its page 1 counts July's REL-UNPAID R02 now waiting (171 days)
    assert [(r["month"], r["pound_id"], r["measure"], r["closed_value"], r["current_value"], r["causes"])
            for r in read(tmp_path / "out" / "adjustments.csv")] == [
        ("2026-11", "", "page1_oldest_days", "142", "171", "loaded since the close: registers/releases_fix.csv"),
        ("2026-11", "", "page1_waiting_high", "2", "3", "loaded since the close: registers/releases_fix.csv")]


def test_the_bundle_reader_passes_over_the_closes(closed):
    from pipeline.load.bundle import find_sources

    bundle, _ = closed
    sources, notes, broken = find_sources(bundle)
    assert not any("closes" in s.label for s in sources)
    assert not any("closes" in n for n in notes) and broken == []


def test_the_monthly_review_says_whether_the_month_is_closed_by_whom_and_when(closed, run_cli, tmp_path):
    from pipeline.read.database import connect
    from pipeline.reports import review
    from pipeline.reports.page import _closed_text

    bundle, db = closed
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)   # reads the closes
    assert code == 0, err
    con = connect(db)
    try:
        closed_at = json.loads((bundle / "closes" / "2026-11" / "close.json").read_text(encoding="utf-8"))["closed_at"]
        day, time = closed_at.split(" ")
        y, m, d = day.split("-")
        assert _closed_text(con, "2026-11", None) == f"yes, by DM Dist on {d}-{m}-{y} {time[:5]}"
        assert _closed_text(con, "2026-11", "Dist") == f"yes, by DM Dist on {d}-{m}-{y} {time[:5]}"
        assert _closed_text(con, "2026-12", None) == "no: the month has not been closed"
        assert len(review.changes_to_closed_months(con, "2026-12")) == 0
    finally:
        con.close()


@pytest.mark.notebook
def test_a_close_with_the_rendered_reports_verifies(run_cli, tmp_path, shared):
    bundle, db = fresh(shared, tmp_path)
    code, out, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM Dist", "--bundle", bundle)
    assert code == 0, err
    folder = Path(out.strip())
    page = (folder / "monthly_review_2026-11.html").read_text(encoding="utf-8")
    assert "Monthly accounts review, 2026-11" in page and "Changes to closed months" in page
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "intact" in out


def test_a_district_close_is_named_after_its_district(closed, run_cli, fake):
    bundle, db = closed
    code, out, err = run_cli("close", "--db", db, "--month", "2026-06", "--district", "dist", "--by", "DM Dist",
                             "--bundle", bundle)
    assert code == 0, err
    folder = Path(out.strip())
    assert folder == bundle / "closes" / "2026-06_Dist"
    c = json.loads((folder / "close.json").read_text(encoding="utf-8"))
    assert (c["month"], c["district"]) == ("2026-06", "Dist")
    assert sorted(p.name for p in folder.glob("*.html")) == ["monthly_review_2026-06_Dist.html",
                                                             "reconciliation_2026-06_Dist.html", "trends_2026-06_Dist.html"]
    assert {r["district"] for r in c["figures"]["accounts"]} == {"Dist"}


def _sealed_as_an_older_close(run_cli, closed, tmp_path, older):
    """November closed (and October: conftest.py `closed`, the session's closes copied; October's close,
    untouched, moves nothing), its close.json then made as an older close would be (`older(close)`), and
    the database built again: the adjustments it shows (pound, measure, rule, subject, closed, current,
    causes), sorted. The sealed pack is as it was after."""
    bundle, db = closed
    path = bundle / "closes" / "2026-11" / "close.json"
    c = json.loads(path.read_text(encoding="utf-8"))
    older(c)
    path.write_text(json.dumps(c), encoding="utf-8")
    sealed = path.read_bytes()
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "kept", "--as-of", AS_OF)
    assert code == 0, err
    assert path.read_bytes() == sealed
    return sorted((r["pound_id"], r["measure"], r["rule_id"], r["subject_id"], r["closed_value"], r["current_value"],
                   r["causes"]) for r in read(tmp_path / "kept" / "adjustments.csv"))


def test_a_close_sealed_before_the_third_reading_keeps_its_figures_and_names_the_new_reading(run_cli, fake, tmp_path,
                                                                                             closed):
    """A month closed before LF-CREDIT-OVERDUE existed held no such finding and no ledger_grace: the close
    (as the database keeps it) is not reopened; the finding now raised shows as an adjustment whose cause is
    the reading the close did not know. November held G10's and G09's overdue fines (R16); the close is made
    as an older one would be, without them and without the parameter."""
    def older(c):
        del c["parameters"]["ledger_grace"]
        c["figures"]["findings"] = [f for f in c["figures"]["findings"] if f["rule_id"] != "LF-CREDIT-OVERDUE"]
        for row in c["figures"]["accounts"]:
            row["findings"] -= 1            # G10's at PA, G09's at PB

    got = _sealed_as_an_older_close(run_cli, closed, tmp_path, older)
    cause = "reading new since the close: ledger_grace = 30"
    assert got == [("PA", "finding_raised_after_close", "LF-CREDIT-OVERDUE", "G10:fines", "0", "1", cause),
                   # (PA's November also holds G12's HEADS-LEFT-IN-POUND, R26, sealed and raised alike)
                   ("PA", "findings", "", "", "1", "2", cause),
                   ("PB", "finding_raised_after_close", "LF-CREDIT-OVERDUE", "G09:fines", "0", "1", cause),
                   ("PB", "findings", "", "", "0", "1", cause)]


def test_a_close_sealed_before_a_ruling_keeps_its_figures_and_names_the_ruling_as_the_cause(run_cli, fake, tmp_path,
                                                                                           closed):
    """Issue 50, item 5: November is closed as it would have been before R26, without G12's HEADS-LEFT-IN-POUND
    (its second head left unreported after a part release: high, PA) and under the rulings before it. The close
    is not reopened and keeps its figures; what the ruling moved shows as adjustments, the ruling its cause."""
    from pipeline.core.params import RULINGS

    def older(c):
        assert json.loads(c["parameters"]["rulings"]) == RULINGS
        c["parameters"]["rulings"] = json.dumps("third reading")
        c["figures"]["findings"] = [f for f in c["figures"]["findings"] if f["rule_id"] != "HEADS-LEFT-IN-POUND"]
        for row in c["figures"]["accounts"]:
            if row["pound_id"] == "PA":
                row["findings"] -= 1
                row["findings_high"] -= 1

    got = _sealed_as_an_older_close(run_cli, closed, tmp_path, older)
    cause = f"rulings since the close: {RULINGS} (closed under third reading)"
    assert got == [("PA", "finding_raised_after_close", "HEADS-LEFT-IN-POUND", "G12", "0", "1", cause),
                   # PA's November: G10's LF-CREDIT-OVERDUE sealed and still raised, G12's added
                   ("PA", "findings", "", "", "1", "2", cause),
                   ("PA", "findings_high", "", "", "0", "1", cause)]
