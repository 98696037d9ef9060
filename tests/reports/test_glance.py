"""The month at a glance (pipeline/reports/glance.py): its figures are their models', `pound close`
seals and says exactly them; and the balances stand the missing and the unexpected beside the net."""

from __future__ import annotations

import json

import pytest

from pipeline.read.balances import period_balances
from pipeline.read.scope import make_scope
from pipeline.reports import glance

pytestmark = pytest.mark.xdist_group("glance")     # one test process: the short release's build made once for both twins, not once in each test process


def test_the_glance_figures_of_october(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-10")}
    # by hand from the sample's October: heads impounded P01 4 + 1 (M-2610-022) + P02 10 + 1 (N-2610-021, the
    # re-seizure, a case of its own: R4) + P03 3 = 19; released 2 + 2 + 0 = 4; sold 5 + 8 + 1 + 1 (S-007,
    # the re-seized cow) = 15, and M-2610-022's bullock disposed of (S-009, R5), not sold; at the end
    # 2 + 0 + 2 = 4 (the roll-forward). Received Rs 54,900.00 + S-007's 9,000.00 (S-009 brought nothing)
    # = 63,900.00, of which feeding charges under s.18(3) 17,000.00 + S-007's 7 days x 200 = 1,400.00 from
    # buyers + 1,500.00 at a pound = 19,900.00
    assert got["heads impounded"] == "19" and got["heads released"] == "4" and got["heads sold"] == "15"
    assert got["heads in the pounds at month end"] == "4"
    assert got["money received (Rs)"] == "63,900.00" and got["of which under s.18(3) (Rs)"] == "19,900.00"
    # the sections add up to the whole (each is read from fund_movements on its own)
    parts = [f.value for f in glance.figures(con, "2026-10") if f.label.startswith("of which under")]
    assert sum(parts) == 6390000
    # R14, as of 30-11-2026. Waiting (open or reopened) of October and before: September's REL-NO-SECURITY R-0007
    # (high; REL-UNPAID, REL-UNSIGNED and REL-NO-DECLARATION are decided) and October's S15-SALE-UNPROCLAIMED
    # S-006 (high, R7) and REL-NO-DECLARATION R-0012 (high, R28: N-2610-013's remainder delivered undeclared
    # on 09-10) and S15-SALE-UNPROCLAIMED S-005 (high, R25: N-2610-014 never proclaimed at the market place): 4 high;
    # September's S15-SALE-EARLY S-002 and October's S-005 (R25: a day before the owner's days from the
    # proclamation ran out), October's LF-CREDIT-OVERDUE N-2609-012 and H-2609-017 (R16), S14-NOT-NOTIFIED RO-03,
    # S15-NOTICE-MISSING H-2610-018 and SALE-OFFICIAL-BUYER S-006 (a match on the name alone, R8): 7 medium.
    # The oldest, R-0007 of 09-09-2026, has waited 21 + 31 + 30 = 82 days. Of October itself: 3 high, 6 medium.
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["4", "7", "0"]
    assert got["days the oldest has waited"] == "82"
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == ["3", "6", "0"]
    # money overdue by the end of October: N-2609-012's fines Rs 100.00 short (overdue from 09-10) and
    # H-2609-017's Rs 1,200.00 never credited (from 12-10): 2, Rs 1,300.00. H-2610-018's surplus is
    # overdue at the DM only from 18-11: November's
    assert got["credits and receipts overdue"] == "2"
    assert got["money overdue, not credited (Rs)"] == "1,300.00"
    assert got["deadlines in the 7 days after the month"] == "3"


def test_the_glance_figures_of_november_count_the_months_before(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-11")}
    # November adds DM-RECEIPT-OVERDUE H-2610-018 (medium, R17), S15-REPORT-MISSING H-2610-019 (medium) and
    # DM-SURPLUS-CREDITED-EARLY M-2608-003 (high, R21: credited on 15-11, inside the DM's six months):
    # waiting 5 high (October's R-0012 of R28 and S-005 of R25 among them) and 9 medium (S-002 and S-005 early,
    # R25), of November itself 1 high and 2 medium; the oldest is still R-0007 (82 days)
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["5", "9", "0"]
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == ["1", "2", "0"]
    assert got["days the oldest has waited"] == "82"
    # and the DM's Rs 4,850.00: 3 overdue, Rs 1,300.00 + 4,850.00 = Rs 6,150.00
    assert (got["credits and receipts overdue"], got["money overdue, not credited (Rs)"]) == ("3", "6,150.00")


def test_a_quiet_month_has_its_figures_at_nought(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-05", "Mysuru")}
    assert got["heads impounded"] == "0" and got["money received (Rs)"] == "0.00"
    assert not any(label.startswith("of which under") for label in got)


def test_the_page_holds_the_figures_decisions_close_and_signature(con):
    page = glance.page(con, "2026-10", "October 2026", None, "no: the month has not been closed")
    for f in glance.figures(con, "2026-10"):
        assert f">{f.label}</th>" in page and f">{f.text}</td>" in page
    assert 'id="glance-decided"' in page and "no: the month has not been closed" in page
    assert "District Magistrate: signature" in page and "Name" in page and "Date and seal" in page


def _run_of_a_copy(shared, bundle, root):
    """data/sample copied to root/bundle and run to root/out as of 30-11-2026: a copy of the session's
    run of it (tests/shared.py), told where its bundle now is, as a run from root/bundle writes it (its
    full path in loads.bundle and its staged copy; beside the database's folder in loads.bundle_at);
    the database."""
    import shutil

    import duckdb

    shutil.copytree(bundle, root / "bundle", ignore=shutil.ignore_patterns("closes"))
    db = shared.run(bundle, "2026-11-30", root / "out") / "pound.duckdb"
    con = duckdb.connect(str(db))
    try:
        for table in ("loads", "stg_loads"):
            con.execute(f"UPDATE {table} SET bundle = ?", [str((root / "bundle").resolve())])
        con.execute("UPDATE loads SET bundle_at = '../bundle'")
    finally:
        con.close()
    return db


@pytest.mark.notebook
def test_pound_close_seals_and_says_the_figures_of_the_page_it_signs(shared, sample_bundle, tmp_path, run_cli):
    # the sample run as of 30-11-2026 from a copy of its own (the session's run, copied: no run made here)
    db = _run_of_a_copy(shared, sample_bundle, tmp_path)
    bundle = tmp_path / "bundle"
    code, out, err = run_cli("close", "--db", db, "--month", "2026-10", "--by",
                             "District Magistrate, Mysuru", "--bundle", bundle)
    assert code == 0, err
    record = json.loads((bundle / "closes" / "2026-10" / "close.json").read_text(encoding="utf-8"))
    assert out.strip() == str(bundle / "closes" / "2026-10")        # the output is the folder alone
    said = [line for line in err.splitlines() if line.startswith("sealed: ")]
    assert said == [f"sealed: {f['label']}: {f['text']}" for f in record["signed"]]
    assert "sealed: heads impounded: 19" in said and "sealed: money received (Rs): 63,900.00" in said   # as above
    # the sealed copy of the review shows the same figures on its first page
    page = (bundle / "closes" / "2026-10" / "monthly_review_2026-10.html").read_text(encoding="utf-8")
    assert all(f">{f['text']}</td>" in page for f in record["signed"])


def test_balances_show_the_missing_and_the_unexpected_beside_the_net(con):
    rows = {(r["ledger"], r["local_authority_id"]): r for r in period_balances(con, make_scope(None, None,
                                                                                             month="2026-10"))}
    la03 = rows[("local_fund", "LA03")]
    # LA03 by hand: Rs 1,200.00 of fines due (H-2609-017) never credited, and Rs 2,500.00 of lease rent
    # credited for nothing due: the net closing is 1,200.00 - 2,500.00 = -1,300.00
    assert (la03["closing_due_not_credited"], la03["missing_at_end"], la03["unexpected_at_end"]) == \
        (-130000, 120000, 250000)
    assert la03["ties"]
    # its near-miss twin: LA01 has nothing unexpected, and its closing is all missing
    la01 = rows[("local_fund", "LA01")]
    assert la01["unexpected_at_end"] == 0 and la01["missing_at_end"] == la01["closing_due_not_credited"]


def _short_release() -> dict:
    """Release R1 of C1 (03-10-2026) paid Rs 599.99 of Rs 600.00 charges, its fines credited."""
    from helpers import case

    return {"impoundments": [case()],
            "releases": [{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": 1,
                          "basis": "s12_payment", "fines_paid": "600", "charges_paid": "599.99", "receipt_signed": "yes"}],
            "local_fund": [{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": "2026-10-05", "amount": "600",
                            "reference": "C1", "head": "fines"}]}


@pytest.fixture(scope="module")
def short_release_detail() -> str:
    """The detail of _short_release's REL-UNPAID finding, as a build with no decision gives it (built once
    for the module: both twins below decide on it)."""
    from helpers import built_rows

    con = built_rows(**_short_release())
    try:
        (detail,) = con.execute("SELECT detail FROM findings WHERE rule_id = 'REL-UNPAID'").fetchone()
    finally:
        con.close()
    return detail


@pytest.mark.parametrize("moved", [True, False], ids=["reopened", "decided"])
def test_a_reopened_finding_waits_on_the_page_to_sign(short_release_detail, moved):
    """R14: a finding whose decision was made on other figures (reopened by a correction) waits for a
    decision like an open one. Release R1 of C1 (03-10-2026) paid Rs 599.99 of Rs 600.00 charges: REL-UNPAID,
    high, 58 days before 30-11-2026. Decided on a detail short by Rs 200.00, it is reopened and counted; its
    twin, decided on the detail as it reads now, is not."""
    from helpers import built_rows

    rows = _short_release()
    detail = short_release_detail
    decided = detail.replace("short by Rs 0.01", "short by Rs 200.00") if moved else detail
    assert decided != detail or not moved
    con = built_rows(**rows, finding_reviews=[{"rule_id": "REL-UNPAID", "subject_id": "R1", "reviewed_on": "2026-10-20",
                                               "reviewed_by": "DM", "decision": "accepted", "finding_detail": decided}])
    assert con.execute("SELECT review_status FROM findings").fetchall() == [("reopened" if moved else "accepted",)]
    got = {f.label: f.text for f in glance.figures(con, "2026-10")}
    waiting = ["1", "0", "0"] if moved else ["0", "0", "0"]
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == waiting
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == waiting
    assert got["days the oldest has waited"] == ("58" if moved else "0")
    assert got["credits and receipts overdue"] == "0"


def test_page_one_by_hand_a_reopened_finding_an_earlier_month_and_credits_overdue():
    """marts/page_one on a small case, every figure by hand (accounts as of 30-11-2026, ledger_grace 30 days),
    pounds P1 (Mysuru) and P3 (Mandya):
      R2 (C2, P3) of 05-09-2026 paid none of Rs 1,000.00 charges: REL-UNPAID, high, September, Mandya, open;
        C2's fines, Rs 600.00 due to LA3 on 05-09, never credited: overdue after 05-10 (LF-CREDIT-OVERDUE,
        medium, October, Mandya, open);
      R1 (C1, P1) of 03-10-2026 short by Rs 0.01: REL-UNPAID, high, October, Mysuru, decided on a detail short
        by Rs 200.00, so reopened; its fines credited (E1);
      R3 (C3, P1) of 01-10-2026 paid in full; its fines, Rs 600.00 due to LA1 on 01-10, never credited: overdue
        after 31-10 (LF-CREDIT-OVERDUE, medium, October, Mysuru), a finding explained by the DM: it no longer
        waits, but the credit is still overdue.
    A close of October (every district) as of 31-10-2026 is in force; an earlier one, as of 05-11, is not; a
    close of October for Mandya is as of 15-11-2026."""
    import datetime as dt

    from helpers import REFERENCE, case, database

    from pipeline.build import build
    from pipeline.core.params import Parameters

    def release(rid, cid, day, charges):
        return {"release_id": rid, "case_id": cid, "released_on": day, "head_count": 1, "basis": "s12_payment",
                "fines_paid": "600", "charges_paid": charges, "receipt_signed": "yes"}

    con = database(
        local_authorities=[*REFERENCE["local_authorities"], {"local_authority_id": "LA3", "name": "Hobli Panchayat",
                                                               "kind": "gram_panchayat", "district": "Mandya"}],
        pounds=[*REFERENCE["pounds"], {"pound_id": "P3", "name": "Mandya Pound", "local_authority_id": "LA3",
                                       "taluk": "Plain", "district": "Mandya", "pound_keeper_id": "PK9"}],
        impoundments=[case(), case("C2", "P3", "2026-09-01", owner_id="O2"), case("C3", "P1", "2026-09-29", owner_id="O3")],
        releases=[release("R1", "C1", "2026-10-03", "599.99"), release("R2", "C2", "2026-09-05", "0"),
                  release("R3", "C3", "2026-10-01", "600")],
        local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": "2026-10-05", "amount": "600",
                     "reference": "C1", "head": "fines"}],
        finding_reviews=[
            {"rule_id": "REL-UNPAID", "subject_id": "R1", "reviewed_on": "2026-10-20", "reviewed_by": "DM",
             "decision": "accepted", "finding_detail": "Release R1 of 1 cattle (case C1) on 03-10-2026 collected "
             "Rs 600.00 of Rs 600.00 fines and Rs 599.99 of Rs 600.00 feeding charges due under s.12(1): short by "
             "Rs 200.00."},
            {"rule_id": "LF-CREDIT-OVERDUE", "subject_id": "C3:fines", "reviewed_on": "2026-11-10", "reviewed_by": "DM",
             "decision": "explained"}])
    con.execute("INSERT INTO closes (close_id, folder, month, district, closed_by, closed_at, as_of) VALUES "
                "(1, 'closes/2026-10', '2026-10', NULL, 'DM', TIMESTAMP '2026-11-05 10:00', DATE '2026-11-05'), "
                "(2, 'closes/2026-10', '2026-10', NULL, 'DM', TIMESTAMP '2026-11-06 10:00', DATE '2026-10-31'), "
                "(3, 'closes/2026-10_Mandya', '2026-10', 'Mandya', 'DM', TIMESTAMP '2026-11-16 10:00', "
                "DATE '2026-11-15')")
    build(con, Parameters({}, as_of=dt.date(2026, 11, 30)))
    # the premise: the findings and their decisions as told above
    assert sorted(con.execute("SELECT rule_id, subject_id, month, district, review_status FROM findings").fetchall()) == [
        ("LF-CREDIT-OVERDUE", "C2:fines", "2026-10", "Mandya", "open"),
        ("LF-CREDIT-OVERDUE", "C3:fines", "2026-10", "Mysuru", "explained"),
        ("REL-UNPAID", "R1", "2026-10", "Mysuru", "reopened"),
        ("REL-UNPAID", "R2", "2026-09", "Mandya", "open")]
    names = ("waiting_high", "waiting_medium", "waiting_low", "oldest_days", "of_month_high", "of_month_medium",
             "of_month_low", "overdue_credits", "overdue_money")
    rows = {(str(r[0]), r[1], r[2]): r[3:] for r in con.execute(
        f"SELECT as_of, month, district, {', '.join(names)} FROM page_one").fetchall()}
    want = {
        # September: R2 alone waits, 25 + 31 + 30 = 86 days by 30-11; C2's credit is filed under October
        ("2026-11-30", "2026-09", "all"): (1, 0, 0, 86, 1, 0, 0, 0, 0),
        ("2026-11-30", "2026-09", "Mysuru"): (0, 0, 0, 0, 0, 0, 0, 0, 0),
        # October: R2 (September) and R1 (reopened) high, C2:fines medium (C3:fines is explained); the oldest R2;
        # of October itself R1 and C2:fines; overdue C2 (from 06-10) and C3 (from 01-11), Rs 1,200.00
        ("2026-11-30", "2026-10", "all"): (2, 1, 0, 86, 1, 1, 0, 2, 120000),
        # Mysuru: R1 only, 28 + 30 = 58 days; C3's credit
        ("2026-11-30", "2026-10", "Mysuru"): (1, 0, 0, 58, 1, 0, 0, 1, 60000),
        # Mandya: R2 and C2:fines, of October only C2:fines; C2's credit
        ("2026-11-30", "2026-10", "Mandya"): (1, 1, 0, 86, 0, 1, 0, 1, 60000),
        # November holds no finding: October's carried on, none of the month; C1's fines were credited
        ("2026-11-30", "2026-11", "all"): (2, 1, 0, 86, 0, 0, 0, 2, 120000),
        # the close in force of October, as of 31-10: R2 has waited 25 + 31 = 56 days, and C3's credit, overdue
        # only from 01-11, is not yet overdue
        ("2026-10-31", "2026-10", "all"): (2, 1, 0, 56, 1, 1, 0, 1, 60000),
        # Mandya's close, as of 15-11: 25 + 31 + 15 = 71 days
        ("2026-11-15", "2026-10", "Mandya"): (1, 1, 0, 71, 0, 1, 0, 1, 60000),
    }
    assert {k: rows.get(k) for k in want} == want
    # a close not in force is not asked for: no row on its as-of date
    assert not [k for k in rows if k[0] == "2026-11-05"]
    # the page reads its row on the accounts' as-of date, not a close's
    got = {f.label: f.text for f in glance.figures(con, "2026-10")}
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["2", "1", "0"]
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == ["1", "1", "0"]
    assert got["days the oldest has waited"] == "86"
    assert (got["credits and receipts overdue"], got["money overdue, not credited (Rs)"]) == ("2", "1,200.00")
    got = {f.label: f.text for f in glance.figures(con, "2026-10", "Mysuru")}
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["1", "0", "0"]
    assert (got["days the oldest has waited"], got["money overdue, not credited (Rs)"]) == ("58", "600.00")
    # a month after the last of any finding or credit (November's), its page drawn up to 30-11 all the same:
    # October's and September's findings still wait, none of its own, the same credits overdue
    got = {f.label: f.value for f in glance.figures(con, "2027-03")}
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == [2, 1, 0]
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == [0, 0, 0]
    assert (got["days the oldest has waited"], got["credits and receipts overdue"],
            got["money overdue, not credited (Rs)"]) == (86, 2, 120000)
    # and a month before the first: nothing waits yet
    got = {f.label: f.value for f in glance.figures(con, "2026-08")}
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == [0, 0, 0]
    assert (got["days the oldest has waited"], got["credits and receipts overdue"]) == (0, 0)
    con.close()
