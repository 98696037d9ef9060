"""What the reports read: selections of finished models, for the sample's October and others."""

from __future__ import annotations

import re

import duckdb
import pandas as pd
import pytest

from pipeline.core.errors import PoundError
from pipeline.read import reconciliation as rec
from pipeline.read.database import check_district, connect
from pipeline.reports import review, trends
from pipeline.reports.page import busiest_month


def test_missing_database_is_a_plain_error(tmp_path):
    with pytest.raises(PoundError, match="does not exist"):
        connect(tmp_path / "nope.duckdb")


def test_a_file_that_is_not_a_database_is_a_plain_error(tmp_path):
    p = tmp_path / "x.duckdb"
    p.write_text("not a database")
    with pytest.raises(PoundError, match="is not a database written by 'pound run' .*it is not a DuckDB file"):
        connect(p)


def test_a_database_never_built_is_a_plain_error(tmp_path):
    p = tmp_path / "raw.duckdb"
    duckdb.connect(str(p)).close()
    with pytest.raises(PoundError, match="holds no finished accounts .*pound build"):
        connect(p)


def test_a_database_computed_by_an_earlier_version_says_to_compute_it_again(sample_db, tmp_path):
    import shutil

    old = tmp_path / "old.duckdb"
    shutil.copy(sample_db, old)
    c = duckdb.connect(str(old))
    c.execute("DROP TABLE deadline_kinds")
    c.execute("ALTER TABLE reconciliation DROP COLUMN status_amount")
    c.close()
    with pytest.raises(PoundError, match=r"earlier version of pound \(no table deadline_kinds, "
                                         r"column reconciliation.status_amount\).*pound build"):
        connect(old)
    connect(sample_db).close()            # one computed by this version opens


def test_the_connection_is_read_only(con):
    with pytest.raises(duckdb.Error):
        con.execute("DELETE FROM findings")


# --------------------------------------------------------------------------- the monthly review

def test_rollforward_of_october(con):
    roll = review.rollforward(con, "2026-10").set_index("pound_id")
    assert roll.loc["P02", ["heads_start", "heads_impounded", "heads_released", "heads_sold", "heads_end"]].tolist() \
        == [0, 11, 2, 9, 0]       # N-2610-021 (R4): 1 head seized again on 20/10 and sold on 26/10
    assert roll["rollforward_ties"].all()
    # P01: 5 at the start + 5 impounded - 2 released - 5 sold - 1 disposed of (M-2610-022's bullock, handed
    # to a gaushala after a rejected bid, R5) = 2; P02's 11 impounded hold the 1 seized again (N-2610-021)
    assert roll.loc["P01", ["heads_start", "heads_impounded", "heads_released", "heads_sold", "heads_disposed",
                            "heads_end"]].tolist() == [5, 5, 2, 5, 1, 2]
    assert roll["heads_reseized"].tolist() == [0, 1, 0] and roll.loc["P02", "heads_disposed"] == 0


def test_money_stays_integer_paise(con):
    frames = {
        "received": (review.money_received(con, "2026-10"), ["amount"]),
        "passed_on": (review.money_passed_on(con, "2026-10"), ["amount"]),
        "sales": (review.sales_in_month(con, "2026-10"), list(review.SALE_MONEY)),
        "by_pound": (review.money_by_pound(con, "2026-10"), [c for c, _ in review.MONEY_BY_POUND]),
        "by_authority": (rec.by_authority(con), ["expected", "credited", "difference"]),
        "dm_held": (rec.dm_deposit_held(con), ["held_due", "held_booked"]),
        "fines": (trends.fines_due_vs_collected(con, "2026-10"), ["fines_due", "fines_collected", "fines_not_collected"]),
    }
    for name, (df, cols) in frames.items():
        for c in cols:
            assert pd.api.types.is_integer_dtype(df[c]), (name, c, df[c].dtype)


def test_money_received_is_every_first_movement_of_the_month(con):
    received = review.money_received(con, "2026-10")
    total = con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1 "
                        "AND due_on BETWEEN DATE '2026-10-01' AND DATE '2026-10-31'").fetchone()[0]
    # 54,900 and the 9,000 of the re-seizure N-2610-021's s.17 sale of 26/10 (the disposal brought nothing)
    assert sum(int(v) for v in received["amount"]) == total == 6390000
    assert int(review.received_total(con, "2026-10")["amount"].iloc[0]) == total


def test_the_s17_sale_of_n_2610_013(con):
    row = review.sales_in_month(con, "2026-10").set_index("case_id").loc["N-2610-013"]
    assert int(row["sale_proceeds"]) == 2200000 and bool(row["s17_sale"])
    # R1: security on the 2 heads returned (3,000), not on all 4: balance 8,500
    assert int(row["balance_to_owner"]) == 850000


def test_findings_are_high_severity_first(con):
    f = review.findings_in_month(con, "2026-10")
    assert f["severity"].tolist() == sorted(f["severity"], key=["high", "medium", "low"].index)
    top = f.iloc[0]
    # R28: the remainder of N-2610-013 delivered undeclared is high; R7: the sales with no proclamation (S-006;
    # S-005 at the market place, R25) are high; R8: the buyer's name alone is medium
    assert (top["rule_id"], top["subject_kind"], top["subject_id"], top["section"]) == \
        ("REL-NO-DECLARATION", "release", "R-0012", "13(1)")
    unproclaimed = f[f["rule_id"] == "S15-SALE-UNPROCLAIMED"].set_index("subject_id")
    assert sorted(unproclaimed.index) == ["S-005", "S-006"] and set(unproclaimed["severity"]) == {"high"}
    assert "no proclamation by beat of drum" in unproclaimed.loc["S-006", "detail"]
    assert int(review.high_findings(con, "2026-10")["high_findings"].iloc[0]) == 3


def test_deadlines_after_october(con):
    d = review.deadlines(con, "2026-10")
    got = {(r.case_id, r.deadline, r.due_on.date().isoformat()) for r in d.itertuples()}
    assert got == {("H-2610-019", "claim window ends", "2026-11-04"),
                   ("H-2610-019", "report to the police due", "2026-11-05"),
                   ("M-2610-008", "auction allowed from", "2026-11-06")}
    # by the accounts' date (30-11) H-2610-019 had still not been reported, and M-2610-008 not auctioned
    assert dict(zip(d["deadline"], d["by_accounts_date"], strict=True)) == {
        "claim window ends": "window closed on 04-11-2026", "report to the police due": "not done by 30-11-2026",
        "auction allowed from": "no auction yet"}
    # M-2610-007 went under protest on 2026-10-06 but its complaint was filed on 2026-10-10
    assert "M-2610-007" not in set(d["case_id"])
    assert int(review.deadline_count(con, "2026-10")["deadlines"].iloc[0]) == 3
    assert review.horizon(con) == 7


def test_the_page_explains_the_deadlines_with_the_days_the_list_was_made_with():
    from helpers import database

    from pipeline.build import build
    from pipeline.core.params import Parameters

    def days(params):
        c = database(reference=False)
        build(c, Parameters(params), upto="deadline_kinds")
        kinds = review.deadline_kinds(c)
        days.notes = dict(zip(kinds["deadline"], kinds["note"], strict=True))
        return dict(zip(kinds["deadline"], kinds["day"], strict=True))

    usual = days({})
    assert usual["claim window ends"] == "impounded on day D: D + 7 days (D + 3 for the short classes: ass, sheep)"
    assert usual["report to the police due"] == "D + 8 days (D + 4 for the short classes: ass, sheep)"
    assert usual["auction overdue after"] == "N + 38 days (N + 34 for the short classes: ass, sheep)"
    assert usual["complaint window ends"] == "delivered under protest on day R: R + 28 days"
    # counting the first day moves every s.15 day one earlier; the graces add on
    changed = days({"count_first_day": True, "report_grace": 2, "sale_grace": 10, "short_classes": ["sheep"]})
    assert changed["claim window ends"] == "impounded on day D: D + 6 days (D + 2 for the short classes: sheep)"
    assert changed["report to the police due"] == "D + 9 days (D + 5 for the short classes: sheep)"
    assert changed["auction allowed from"] == "notice given on day N: N + 7 days (N + 3 for the short classes: sheep)"
    assert changed["auction overdue after"] == "N + 17 days (N + 13 for the short classes: sheep)"
    # what is a reading of this office and not the Act is said so
    assert "2 days of grace (report_grace" in days.notes["report to the police due"]
    assert "10 days after it is allowed (sale_grace)" in days.notes["auction overdue after"]
    # no short classes: no bracket naming none
    assert days({"short_classes": []})["claim window ends"] == "impounded on day D: D + 7 days"


def test_deadlines_after_november(con):
    d = review.deadlines(con, "2026-11")
    got = {(r.case_id, r.deadline) for r in d.itertuples()}
    assert got == {("N-2611-015", "claim window ends"), ("N-2611-015", "report to the police due"),
                   ("M-2610-008", "auction overdue after")}
    assert (d["days_after_month_end"] <= 7).all()


def test_a_quiet_month_has_no_activity(con):
    assert review.has_activity(con, "2026-10", None)
    assert not review.has_activity(con, "2026-05", None)
    assert not review.has_activity(con, "2031-01", "Mysuru")


def test_busiest_month_of_the_sample(con):
    assert busiest_month(con) == "2026-10"


# --------------------------------------------------------------------------- reconciliation

def test_reconciliation_totals_tie(con):
    ties = {(t["ledger"], t["head"]): t for t in rec.ties(con)}
    # the DM's deposit head by head: what he receives is never added to what he credits on
    assert list(ties) == [("dm_deposit", "receipt"), ("dm_deposit", "credit_to_local_fund"), ("local_fund", None)]
    for t in ties.values():
        assert t["ties"]
        by = t["by_status"]
        assert t["expected_total"] == sum(by[s][1] for s in rec.EXPECTED_SIDE)
        assert t["credited_total"] == sum(by[s][2] for s in rec.LEDGER_SIDE)
    lf = ties[("local_fund", None)]
    assert lf["by_status"]["amount_mismatch"] == (1, 60000, 50000)
    assert lf["by_status"]["unexpected"] == (1, 0, 250000)


def test_each_status_stands_for_the_amount_expected_or_an_unexpected_entry(con):
    # the sample's one unexpected local-fund entry (Rs 2,500) and its amount mismatch (Rs 600 expected)
    rows = {(r["ledger"], r["status"]): r for r in rec.status_by_authority(con).to_dict("records")
            if r["ledger"] == "local_fund"}
    assert rows[("local_fund", "unexpected")]["amount"] == 250000
    assert rows[("local_fund", "amount_mismatch")]["amount"] == 60000
    for r in rec.status_by_authority(con).to_dict("records"):
        assert r["amount"] == (r["credited"] if r["status"] == "unexpected" else r["expected"]), r


def test_the_difference_on_credits_already_due_leaves_out_the_pending_ones(con):
    by = rec.by_authority(con)
    pending = {(r["ledger"], r["head"], r["local_authority_id"]): r["d"] for r in con.execute(
        "SELECT ledger, head, local_authority_id, sum(difference) AS d FROM reconciliation "
        "WHERE status = 'pending' GROUP BY ALL").df().to_dict("records")}
    assert pending, "the sample has pending credits"
    for r in by.to_dict("records"):
        assert r["difference_due"] == r["difference"] - pending.get((r["ledger"], r["head"], r["local_authority_id"]), 0)
    assert (by["difference_due"] != by["difference"]).any()


def test_every_break_is_listed_with_its_difference(con):
    breaks = rec.breaks(con)
    assert len(breaks) == con.execute("SELECT count(*) FROM reconciliation WHERE status NOT IN ('matched', 'pending')").fetchone()[0]
    r = breaks[breaks["reference"] == "N-2609-012"].iloc[0]
    assert (r["status"], int(r["difference"])) == ("amount_mismatch", -10000)
    assert breaks.iloc[0]["status"] == "amount_mismatch"
    assert set(rec.pending(con)["status"]) <= {"pending"}


def test_ageing_of_missing(con):
    aged = rec.ageing(con).set_index("ageing")
    assert int(aged["items"].sum()) == 2
    assert aged.loc["31-60 days", "dm_deposit"] == 485000      # H-2610-018's surplus, 42 days
    assert aged.loc["61-90 days", "local_fund"] == 120000      # H-2609-017's fines, 79 days
    assert int(aged["amount"].sum()) == 605000


def test_the_dm_deposit_position(con):
    held = rec.dm_deposit_held(con).set_index("local_authority_id")
    la01 = held.loc["LA01"]
    assert int(la01["held_booked"]) == 415000
    assert int(la01["held_booked"]) == int(la01["receipts_booked"]) - int(la01["credits_booked"]) - int(la01["refunds_booked"])
    assert int(la01["held_difference"]) == int(la01["held_booked"]) - int(la01["held_due"])


# --------------------------------------------------------------------------- trends

def test_trends_queries(con):
    assert trends.months_upto(con, "2026-10")[0] == "2026-03" and trends.months_upto(con, "2026-10")[-1] == "2026-10"
    # a month before the accounts begin is a page of one empty month (the trends page once failed on it)
    assert trends.months_upto(con, "2026-02") == ["2026-02"]
    by_class = trends.impoundments_by_class(con, "2026-10")
    october = by_class[by_class["month"] == "2026-10"].set_index("animal_class")["heads"]
    # N-2610-021 (the re-seizure) and M-2610-022 (disposed of) are October cattle cases too
    assert october["cattle"] == 13 and october.sum() == 19
    out = trends.outcomes_by_month(con, "2026-10").set_index("month")
    assert out.loc["2026-10", "cases"] == 9 and out.loc["2026-10", "sold_unclaimed"] == 2
    assert abs(out.loc["2026-10", "share_unclaimed"] - 100 * 2 / 9) < 1e-9
    ttr = trends.time_to_close(con, "2026-10").set_index("case_id")
    assert ttr.loc["M-2608-003", "days_to_close"] == 17
    summary = trends.time_to_close_summary(con, "2026-10")
    assert int(summary["cases"].sum()) == len(ttr)
    owners = trends.repeat_owners(con, "2026-10")
    # O206's re-seizure (R4) is a case of its own, beside the case delivered under protest
    assert set(owners["owner_id"]) == {"O101", "O201", "O206"} and (owners["cases"] > 1).all()
    fines = trends.fines_due_vs_collected(con, "2026-10").set_index("month")
    # M-2610-022's fine of 600 is due and, the disposal bringing nothing, not collected; the re-seizure
    # N-2610-021 levies none (R4)
    assert (fines.loc["2026-10", "fines_due"], fines.loc["2026-10", "fines_collected"]) == (880000, 500000)


def test_district_filter(two_districts):
    c = connect(two_districts)
    try:
        assert check_district(c, "mandya") == "Mandya"
        assert check_district(c, None) is None and check_district(c, " ") is None
        with pytest.raises(PoundError, match="no pound is in district 'Kodagu'"):
            check_district(c, "Kodagu")
        every = review.rollforward(c, "2026-10")
        mandya = review.rollforward(c, "2026-10", "Mandya")
        mysuru = review.rollforward(c, "2026-10", "Mysuru")
        assert set(every["pound_id"]) == {"P1", "P2"}
        assert mandya["pound_id"].tolist() == ["P2"] and int(mandya["heads_impounded"].sum()) == 4
        assert mysuru["pound_id"].tolist() == ["P1"] and int(mysuru["heads_impounded"].sum()) == 2
        assert trends.impoundments_by(c, "2026-10", "Mandya", "pound_id", 12)[0] == ["P2"]
        assert trends.repeat_owners(c, "2026-10", "Mysuru").empty
        assert trends.repeat_owners(c, "2026-10", "Mandya")["owner_id"].tolist() == ["O2"]
        assert set(rec.by_authority(c, "Mandya")["local_authority_id"].dropna()) <= {"LA2"}
    finally:
        c.close()


def test_a_decision_that_names_no_finding_is_listed_and_one_that_does_is_not():
    from helpers import built_rows, case

    release = {"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": 1,
               "basis": "s12_payment", "fines_paid": "600", "charges_paid": "600", "receipt_signed": "no"}
    review_row = {"rule_id": "REL-UNSIGNED", "reviewed_on": "2026-10-20", "reviewed_by": "DM", "decision": "explained",
                  "note": ""}
    con = built_rows(impoundments=[case("C1")], releases=[release],
                     finding_reviews=[{**review_row, "subject_id": "R1"}, {**review_row, "subject_id": "R9"}])
    try:
        assert con.execute("SELECT rule_id, subject_id, review_status FROM findings WHERE rule_id = 'REL-UNSIGNED'"
                           ).fetchall() == [("REL-UNSIGNED", "R1", "explained")]
        listed = review.decisions_naming_no_finding(con, "2026-10")
        assert list(zip(listed["rule_id"], listed["subject_id"], strict=True)) == [("REL-UNSIGNED", "R9")]
        assert len(review.decisions_naming_no_finding(con, "2026-09")) == 0        # recorded after September
    finally:
        con.close()


@pytest.mark.parametrize("scoped", [True, False])
def test_the_head_of_a_reconciliation_for_a_period_says_what_its_balances_cover(sample_db, scoped):
    from pipeline.read.scope import make_scope
    from pipeline.reports.page import parameters_block

    c = connect(sample_db)
    try:
        period = make_scope(local_authority="LA01", financial_year_="2026-27") if scoped else make_scope(month="2026-10")
        block = parameters_block(c, db=sample_db, month="2026-10", district=None, report="r", period=period)
    finally:
        c.close()
    assert ("Period of the balances (section 2b)" in block) == scoped
    assert ("financial year 2026-27, local authority LA01" in re.sub(r"<[^>]+>", "", block)) == scoped
