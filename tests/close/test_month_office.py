"""The README's month as a district office runs it, on a copy of data/sample: what `pound month`
says of the month, what a correction or a decision loaded after the close shows as an adjustment, and
what verify says of the sealed files and the signed page.

Each test starts from an office made once a session and copied (tests/close/conftest.py): `office`,
November's month run; `closed_office`, November closed as well (`pound close --by DM`).

The sample, as of 30-11-2026: November's page 1 counts 3 high findings waiting (REL-NO-SECURITY R-0007
of 09-09-2026, S15-SALE-UNPROCLAIMED S-006 of 19-10-2026, DM-SURPLUS-CREDITED-EARLY M-2608-003 of
15-11-2026, R21), 7 medium. The sample's own decisions of
15-10-2026 (registers/finding_reviews.csv) decide REL-UNPAID R-0006 "short by Rs 200.00".
The guide's correction of R-0006 (fines 600 -> 400) makes it short by Rs 400.00: the decision was made
on other figures, the finding is reopened, and November's page 1 then counts 4 high waiting, the
oldest R-0006 of 04-09-2026 at 26 + 31 + 30 = 87 days (sealed: R-0007 of 09-09-2026, 21 + 31 + 30 = 82).
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

CORRECTION = (
    "release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
    "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n"
    "R-0006,M-2609-004,04/09/2026,1,s12_payment,Mahadevappa (owner),400.00,400.00,,no,,yes,,"
    "Receipt book shows Rs 400; 600 was written in error\n")
LATE_CASE = (
    "case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,head_count,"
    "description,owner_id,owner_name,owner_village\n"
    "M-2611-030,P01,25/11/2026,25/11/2026,10:00,Ring road Mysuru,Pound-keeper,cattle,2,Two cows,,,\n")


def _adjustments_of_november(folder: Path) -> list[dict]:
    with (folder / "exports" / "adjustments.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["month"] == "2026-11"]


def test_a_correction_that_moves_the_sealed_page_one_shows_as_an_adjustment(closed_office, run_cli):
    root, _ = closed_office
    (root / "mysuru" / "registers" / "releases_2026-11_corrections.csv").write_text(CORRECTION, encoding="utf-8")
    code, out, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", "2026-12", "--out", "r12")
    assert code == 0 and "the finding reopened" in out + err, err      # the premise: R-0006 reopened
    rows = {r["measure"]: r for r in _adjustments_of_november(root / "r12")}
    # sealed high 5 (R-0012 of R28 and S-005 of R25 among them), now 6 (R-0006 reopened); the oldest counted on
    # the close's as-of date, 30-11: 82 -> 87
    assert (rows["page1_waiting_high"]["closed_value"], rows["page1_waiting_high"]["current_value"]) == ("5", "6")
    assert (rows["page1_oldest_days"]["closed_value"], rows["page1_oldest_days"]["current_value"]) == ("82", "87")
    assert "loaded since the close: registers/releases_2026-11_corrections.csv" in rows["page1_waiting_high"]["causes"]
    # nothing else of page 1 moved: of the month itself (November) nothing changed, nor the money overdue
    assert not {m for m in rows if m.startswith("page1_")} - {"page1_waiting_high", "page1_oldest_days"}


def test_a_month_closed_then_run_again_with_nothing_new_shows_no_adjustment(closed_office, run_cli):
    """The near miss: December built with no file loaded since the close; time runs on (the accounts
    drawn up to 31-12) but no figure of page 1 counted on the close's date moves."""
    root, _ = closed_office
    code, _, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", "2026-12", "--out", "r12")
    assert code == 0, err
    assert not [r for r in _adjustments_of_november(root / "r12") if r["measure"].startswith("page1_")]
    # every R14 figure of the page sealed is compared: each label of close.json's page 1 has its measure
    from pipeline.read.database import connect

    con = connect(root / "pound.duckdb")
    try:
        measures = {m for (m,) in con.execute("SELECT measure FROM stg_closed_page").fetchall()}
    finally:
        con.close()
    assert measures == {f"page1_{k}" for k in ("waiting_high", "waiting_medium", "waiting_low", "oldest_days",
                                               "of_month_high", "of_month_medium", "of_month_low",
                                               "overdue_credits", "overdue_money")}


def test_a_decision_added_to_a_sealed_file_counts_as_an_adjustment(closed_office, run_cli):
    root, _ = closed_office
    with (root / "mysuru" / "registers" / "finding_reviews.csv").open("a", encoding="utf-8") as fh:
        fh.write('LF-CREDIT-OVERDUE,N-2609-012:fines,03/12/2026,"District Magistrate, Mysuru",accepted,'
                 "Rs 100 credited on 02-12\n")
    code, out, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", "2026-12", "--out", "r12")
    assert code == 0, err
    assert "its changes count as adjustments to 2026-11" in err          # the premise: the promise is made
    rows = {r["measure"]: r for r in _adjustments_of_november(root / "r12")}
    # N-2609-012:fines decided: medium waiting 9 -> 8 (S-002 and S-005 held a day early, R25, among them); it is
    # of September, not of the month itself
    assert (rows["page1_waiting_medium"]["closed_value"], rows["page1_waiting_medium"]["current_value"]) == ("9", "8")
    assert "loaded since the close: registers/finding_reviews.csv" in rows["page1_waiting_medium"]["causes"]
    assert "page1_of_month_medium" not in rows


def test_verify_compares_the_sealed_findings_csv_with_the_rebuild(closed_office, run_cli):
    root, _ = closed_office
    folder = root / "mysuru" / "closes" / "2026-11"
    text = (folder / "findings.csv").read_text(encoding="utf-8")
    assert ",open," in text                                              # the premise: a finding waiting
    (folder / "findings.csv").write_text(text.replace(",open,", ",explained,", 1), encoding="utf-8")
    record = json.loads((folder / "close.json").read_text(encoding="utf-8"))
    record["files"]["findings.csv"] = hashlib.sha256((folder / "findings.csv").read_bytes()).hexdigest()
    (folder / "close.json").write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli("verify", folder, "--bundle", "mysuru")
    assert code == 2, out + err
    named = [line for line in err.splitlines() if "sealed file differs from the rebuild: findings.csv" in line]
    assert len(named) == 1 and "review_status: sealed explained, rebuilt open" in named[0], err
    assert "intact" not in out


def test_an_edited_findings_csv_is_altered_and_its_figure_named(closed_office, run_cli):
    """The same edit, its hash left as sealed: altered by hash, and the figure named by the rebuild;
    the twin, the folder untouched, is intact with nothing named."""
    root, _ = closed_office
    folder = root / "mysuru" / "closes" / "2026-11"
    code, out, err = run_cli("verify", folder, "--bundle", "mysuru")
    assert code == 0 and "intact (the input files rebuild the sealed figures)" in out, out + err
    text = (folder / "findings.csv").read_text(encoding="utf-8")
    (folder / "findings.csv").write_text(text.replace(",open,", ",explained,", 1), encoding="utf-8")
    code, out, err = run_cli("verify", folder, "--bundle", "mysuru")
    assert code == 2 and "altered: findings.csv" in err, out + err
    assert "findings.csv" in err and "review_status: sealed explained, rebuilt open" in err, err


def _scan(root: Path) -> Path:
    scan = root / "scan.pdf"
    scan.write_bytes(b"%PDF-1.4 the page signed by the District Magistrate\n")
    return scan


def test_verify_says_a_signed_page_sealed_with_the_close_is_kept_and_misses_it(office, run_cli):
    root, _ = office
    code, _, err = run_cli("close", "--db", "pound.duckdb", "--month", "2026-11", "--by", "DM", "--bundle", "mysuru",
                           "--signed", _scan(root))
    assert code == 0, err
    folder = root / "mysuru" / "closes" / "2026-11"
    code, out, err = run_cli("verify", folder)
    assert code == 0 and "signed page: kept (sealed with the close)" in out, out + err
    (folder / "signed_page.pdf").unlink()
    code, out, err = run_cli("verify", folder)
    assert code == 2 and "missing: signed_page.pdf" in err, out + err


def test_verify_says_when_no_signed_page_is_kept(closed_office, run_cli):
    """A scan added after the close is sealed by signed.json alone: with both deleted the folder is
    a close without a signed page, and verify says so on its verdict (docs/design.md)."""
    root, _ = closed_office
    folder = root / "mysuru" / "closes" / "2026-11"
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "no signed page" in out
    code, _, err = run_cli("close", "--db", "pound.duckdb", "--month", "2026-11", "--by", "DM", "--bundle", "mysuru",
                           "--signed", _scan(root))
    assert code == 0, err
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "signed page: kept (added after the close, sealed in signed.json)" in out
    (folder / "signed_page.pdf").unlink()
    code, _, err = run_cli("verify", folder)
    assert code == 2 and "missing: signed_page.pdf" in err
    (folder / "signed.json").unlink()
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "no signed page" in out and "signed page: kept" not in out


def test_the_first_month_run_sends_the_clerk_to_the_meeting_not_to_the_close(office):
    # the sample's own decisions of October arrive with the registers: they are not this meeting's
    _, said = office
    assert "next: the decisions go into" in said
    assert "the decisions loaded are in these figures" not in said


def test_the_month_run_again_after_its_close_says_it_is_closed(closed_office, run_cli):
    code, out, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", "2026-11", "--out", "again")
    assert code == 0, err
    said = out + err
    assert "a draft until the close" not in said and "then: pound close" not in said, said
    assert "closed" in said, said


def test_the_month_run_before_the_month_is_over_says_the_accounts_lie_ahead(office, run_cli):
    import datetime as dt

    ahead = dt.date.today() + dt.timedelta(days=40)
    code, out, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", f"{ahead:%Y-%m}", "--out", "ahead")
    assert code == 0, err
    assert "after today" in out + err, out + err
