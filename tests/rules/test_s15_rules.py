"""The s.15 rules: the police report, the notice, the sale and rejected bids.

A firing bundle and its near miss each; the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import case
from rule_rows import S15, SPEC, day, expect, page_day, rejected, rel, report, sale

HEADS_LEFT = "HEADS-LEFT-IN-POUND"    # R26: a head still in the pound after the case was acted on

# ==============================================================================================
# S15-REPORT-MISSING: unclaimed, never reported, still in the pound after D+w+1+report_grace

@pytest.mark.parametrize("cls, as_of, params, fires, due, w", [
    pytest.param("cattle", "2026-10-09", {}, False, "2026-10-09", 7, id="cattle-on-the-due-day"),
    pytest.param("cattle", "2026-10-10", {}, True, "2026-10-09", 7, id="cattle-a-day-after"),
    pytest.param("ass", "2026-10-05", {}, False, "2026-10-05", 3, id="ass-on-the-due-day"),
    pytest.param("ass", "2026-10-06", {}, True, "2026-10-05", 3, id="ass-a-day-after"),
    pytest.param("sheep", "2026-10-06", {}, True, "2026-10-05", 3, id="sheep-a-day-after"),
    pytest.param("goat", "2026-10-06", {}, False, "2026-10-09", 7, id="goat-is-a-7-day-class"),
    pytest.param("goat", "2026-10-06", {"short_classes": ["ass", "sheep", "goat"]}, True, "2026-10-05", 3,
                 id="goat-made-a-3-day-class-by-parameter"),
    pytest.param("cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 7, id="grace-2-last-day"),
    pytest.param("cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 7, id="grace-2-a-day-after"),
])
def test_s15_report_missing_as_of(run, cls, as_of, params, fires, due, w):
    fs = run(impoundments=[case(animal_class=cls)], as_of=as_of, params=params)
    grace = params.get("report_grace", 0)
    expect(fs, "S15-REPORT-MISSING", fires, kind="case", subject="C1", on=day(due) + dt.timedelta(days=grace),
           says=("C1", cls, "01-10-2026", f"{w} days", f"due on {page_day(due)}", f"in the pound on {page_day(as_of)}"))


@pytest.mark.parametrize("released_on, charges, fires", [
    pytest.param("2026-10-09", "1800", False, id="released-on-the-report-day"),
    pytest.param("2026-10-10", "2000", True, id="released-a-day-after"),
])
def test_s15_report_missing_release_after_the_due_day(run, released_on, charges, fires):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid=charges)])
    expect(fs, "S15-REPORT-MISSING", fires, kind="case", subject="C1", on="2026-10-09",
           says=("C1", "due on 09-10-2026", f"until {page_day(released_on)}"))


def test_s15_report_missing_not_when_the_owner_appeared_and_refused(run):
    fs = run(impoundments=[case()], sales=[rejected(path="s17_refusal", sale_on="2026-10-20")])
    expect(fs, "S15-REPORT-MISSING", False)


# ==============================================================================================
# S15-REPORT-LATE: reported_on > D+w+1+report_grace

@pytest.mark.parametrize("cls, reported_on, params, fires, due, late", [
    pytest.param("cattle", "2026-10-09", {}, False, "2026-10-09", 0, id="cattle-on-the-due-day"),
    pytest.param("cattle", "2026-10-10", {}, True, "2026-10-09", 1, id="cattle-a-day-late"),
    pytest.param("ass", "2026-10-05", {}, False, "2026-10-05", 0, id="ass-on-the-due-day"),
    pytest.param("ass", "2026-10-06", {}, True, "2026-10-05", 1, id="ass-a-day-late"),
    pytest.param("cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 2, id="grace-2-last-day"),
    pytest.param("cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 3, id="grace-2-a-day-after"),
])
def test_s15_report_late(run, cls, reported_on, params, fires, due, late):
    fs = run(impoundments=[case(animal_class=cls)], police_reports=[report(reported_on=reported_on,
             notice_on=reported_on, proclamation_on=reported_on)], as_of="2026-10-20", params=params)
    expect(fs, "S15-REPORT-LATE", fires, kind="case", subject="C1", on=reported_on,
           says=("C1", cls, "01-10-2026", f"on {page_day(reported_on)}", f"{late} day(s)", f"due on {page_day(due)}"))


# ==============================================================================================
# S15-REPORT-EARLY: reported_on <= D+w

@pytest.mark.parametrize("cls, reported_on, params, fires, until", [
    pytest.param("cattle", "2026-10-08", {}, True, "2026-10-08", id="cattle-on-the-last-claim-day"),
    pytest.param("cattle", "2026-10-09", {}, False, "", id="cattle-on-the-due-day"),
    pytest.param("sheep", "2026-10-04", {}, True, "2026-10-04", id="sheep-on-the-last-claim-day"),
    pytest.param("sheep", "2026-10-05", {}, False, "", id="sheep-on-the-due-day"),
    pytest.param("cattle", "2026-10-07", {"count_first_day": True}, True, "2026-10-07", id="count-first-day-fires"),
    pytest.param("cattle", "2026-10-08", {"count_first_day": True}, False, "", id="count-first-day-moves-it"),
])
def test_s15_report_early(run, cls, reported_on, params, fires, until):
    fs = run(impoundments=[case(animal_class=cls)], police_reports=[report(reported_on=reported_on,
             notice_on=reported_on, proclamation_on=reported_on)], as_of="2026-10-20", params=params)
    expect(fs, "S15-REPORT-EARLY", fires, kind="case", subject="C1", on=reported_on,
           says=("C1", cls, "01-10-2026", f"on {page_day(reported_on)}", f"until {page_day(until)}"))


# ==============================================================================================
# S15-NOTICE-MISSING

@pytest.mark.parametrize("notice_on, proclamation_on, as_of, params, fires, what, due", [
    pytest.param("2026-10-10", "", "2026-10-11", {}, False, "", "", id="within-grace"),
    pytest.param("2026-10-10", "", "2026-10-12", {}, True, "the proclamation by beat of drum is", "2026-10-11",
                 id="proclamation-missing-after-grace"),
    pytest.param("", "2026-10-10", "2026-10-12", {}, True, "the notice is", "2026-10-11",
                 id="notice-missing-after-grace"),
    pytest.param("", "", "2026-10-12", {}, True, "neither the notice nor the proclamation by beat of drum is",
                 "2026-10-11", id="both-missing"),
    pytest.param("2026-10-10", "", "2026-10-14", {"notice_grace": 5}, False, "", "", id="grace-5-last-day"),
    pytest.param("2026-10-10", "", "2026-10-15", {"notice_grace": 5}, True, "the proclamation by beat of drum is",
                 "2026-10-14", id="grace-5-a-day-after"),
])
def test_s15_notice_missing(run, notice_on, proclamation_on, as_of, params, fires, what, due):
    fs = run(impoundments=[case()], police_reports=[report(notice_on=notice_on, proclamation_on=proclamation_on)],
             as_of=as_of, params=params)
    expect(fs, "S15-NOTICE-MISSING", fires, kind="case", subject="C1", on=due,
           says=("C1", "09-10-2026", what, f"due by {page_day(due)}"))


@pytest.mark.parametrize("proclamation_on, fires", [("2026-10-18", False), ("2026-10-19", True)])
def test_s15_notice_missing_proclamation_after_the_first_auction(run, proclamation_on, fires):
    fs = run(impoundments=[case()], police_reports=[report(proclamation_on=proclamation_on)], sales=[sale()])
    # the sale made before the proclamation is itself unlawful (S15-SALE-UNPROCLAIMED, R7); and the owner's
    # days run from the last proclamation (R25), so a sale on its day or before it is early too
    expect(fs, "S15-NOTICE-MISSING", fires, kind="case", subject="C1", on=proclamation_on,
           also=["S15-SALE-EARLY"] + (["S15-SALE-UNPROCLAIMED"] if fires else []),
           says=("C1", "proclamation", "19-10-2026", "auction", "18-10-2026"))


def test_s15_notice_missing_proclamation_after_the_auction_without_a_report(run):
    # no report recorded (S15-REPORT-MISSING too), but a proclamation after the auction is still a finding
    fs = run(impoundments=[case()], police_reports=[report(reported_on="", proclamation_on="2026-10-19")],
             sales=[sale()])
    got = sorted((f["rule_id"], f["subject_id"], str(f["event_on"])) for f in fs)
    assert ("S15-NOTICE-MISSING", "C1", "2026-10-19") in got
    assert {g[0] for g in got} == {"S15-NOTICE-MISSING", "S15-REPORT-MISSING", "S15-SALE-UNPROCLAIMED",
                                   "S15-SALE-EARLY"}, got


# ==============================================================================================
# S15-NOTICE-BEFORE-REPORT (R24): the notice or the proclamation dated before the report (C1 reported on its
# due day, 09-10-2026); the same day is in order

@pytest.mark.parametrize("notice_on, proclamation_on, fires, what", [
    pytest.param("2026-10-08", "2026-10-10", True, "the notice is dated 08-10-2026", id="notice-a-day-before"),
    pytest.param("2026-10-09", "2026-10-10", False, "", id="notice-the-same-day"),
    pytest.param("2026-10-10", "2026-10-10", False, "", id="notice-a-day-after"),
    pytest.param("2026-10-10", "2026-10-08", True, "the proclamation by beat of drum is dated 08-10-2026",
                 id="proclamation-a-day-before"),
    pytest.param("2026-10-10", "2026-10-09", False, "", id="proclamation-the-same-day"),
    pytest.param("2026-10-07", "2026-10-08", True,
                 "the notice is dated 07-10-2026 and the proclamation by beat of drum 08-10-2026", id="both-before"),
])
def test_s15_notice_before_report(run, notice_on, proclamation_on, fires, what):
    fs = run(impoundments=[case()], police_reports=[report(notice_on=notice_on, proclamation_on=proclamation_on)],
             as_of="2026-10-12")
    expect(fs, "S15-NOTICE-BEFORE-REPORT", fires, kind="case", subject="C1", on="2026-10-09",
           says=("C1", "reported to the police on 09-10-2026", what, "s.15(2)", "7 days run from the report"))


@pytest.mark.parametrize("market_on, fires", [
    pytest.param("2026-10-08", True, id="market-a-day-before"),
    pytest.param("2026-10-09", False, id="market-the-same-day"),
    pytest.param("2026-10-10", False, id="market-a-day-after"),
])
def test_s15_notice_before_report_at_the_market_place(run, market_on, fires):
    # R25: the proclamation at the market place is given on receipt of the report too
    r = {**report(notice_on="2026-10-10", proclamation_on="2026-10-10"), "market_proclamation_on": market_on}
    fs = run(impoundments=[case()], police_reports=[r], as_of="2026-10-12")
    expect(fs, "S15-NOTICE-BEFORE-REPORT", fires, kind="case", subject="C1", on="2026-10-09",
           says=("C1", "the proclamation by beat of drum at the market place is dated 08-10-2026"))


def test_s15_notice_before_report_even_where_the_owner_came_and_refused(run):
    # the notice is the officer's act: an s.17 attempt afterwards does not undo it
    fs = run(impoundments=[case()], police_reports=[report(notice_on="2026-10-08")],
             sales=[rejected(path="s17_refusal", sale_on="2026-10-11")], as_of="2026-10-12")
    expect(fs, "S15-NOTICE-BEFORE-REPORT", True, kind="case", subject="C1", on="2026-10-09")


@pytest.mark.parametrize("notice_on, sale_on, early", [
    # notice on 08-10, a day before the report: the owner's 7 days run from the report (09-10), so the
    # auction is allowed from 17-10, not from 08-10 + 8 = 16-10
    pytest.param("2026-10-08", "2026-10-16", True, id="notice-before-report-sale-on-notice-plus-8"),
    pytest.param("2026-10-08", "2026-10-17", False, id="notice-before-report-sale-on-report-plus-8"),
    # the twin: a notice on the report's day runs from that day, as before
    pytest.param("2026-10-09", "2026-10-17", False, id="notice-with-the-report-sale-on-report-plus-8"),
])
def test_the_owners_window_runs_from_the_later_of_notice_and_report(run, notice_on, sale_on, early):
    fs = run(impoundments=[case()], police_reports=[report(notice_on=notice_on, proclamation_on="2026-10-09")],
             sales=[sale(sale_on=sale_on)])
    also = ["S15-NOTICE-BEFORE-REPORT"] if notice_on < "2026-10-09" else []
    expect(fs, "S15-SALE-EARLY", early, kind="sale", subject="S1", on=sale_on, also=also,
           says=("earliest lawful day 17-10-2026", "notice on 08-10-2026, before the report of 09-10-2026"))


# ==============================================================================================
# S15-SALE-EARLY: an s15 attempt before notice + w + 1

@pytest.mark.parametrize("cls, reported_on, notice_on, sale_on, fires, earliest, w", [
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-10-17", True, "2026-10-18", 7, id="cattle-a-day-early"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-10-18", False, "", 7, id="cattle-earliest-day"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-10-09", True, "2026-10-10", 3, id="ass-a-day-early"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-10-10", False, "", 3, id="ass-earliest-day"),
])
def test_s15_sale_early(run, cls, reported_on, notice_on, sale_on, fires, earliest, w):
    fs = run(impoundments=[case(animal_class=cls)],
             police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)],
             sales=[sale(sale_on=sale_on)])
    expect(fs, "S15-SALE-EARLY", fires, kind="sale", subject="S1", on=sale_on,
           says=("S1", "C1", f"on {page_day(sale_on)}", f"earliest lawful day {page_day(earliest)}", f"notice on {page_day(notice_on)}",
                 f"{w} days"))


@pytest.mark.parametrize("first_on, fires", [("2026-10-18", False), ("2026-10-17", True)])
def test_s15_sale_early_rejected_attempts_count(run, first_on, fires):
    fs = run(impoundments=[case()], **S15,
             sales=[rejected(sale_on=first_on, disposal_note="re-auctioned"), sale("S2", sale_on="2026-10-25")])
    expect(fs, "S15-SALE-EARLY", fires, kind="sale", subject="S1", on=first_on,
           says=("S1", "17-10-2026", "18-10-2026"))


def test_s15_sale_early_without_notice(run):
    fs = run(impoundments=[case()], police_reports=[report(notice_on="")], sales=[sale()])
    expect(fs, "S15-SALE-EARLY", True, kind="sale", subject="S1", on="2026-10-18",
           says=("S1", "C1", "18-10-2026", "no notice"),
           also=["S15-NOTICE-MISSING", "S15-SALE-UNPROCLAIMED"])


# ==============================================================================================
# S15-SALE-OVERDUE: no attempt by notice + w + 1 + sale_grace

@pytest.mark.parametrize("cls, reported_on, notice_on, as_of, params, fires, first, due", [
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-17", {}, False, "", "", id="cattle-last-day"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-18", {}, True, "2026-10-18", "2026-11-17",
                 id="cattle-a-day-after"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-11-09", {}, False, "", "", id="ass-last-day"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-11-10", {}, True, "2026-10-10", "2026-11-09",
                 id="ass-a-day-after"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-27", {"sale_grace": 40}, False, "", "",
                 id="grace-40-last-day"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-28", {"sale_grace": 40}, True, "2026-10-18",
                 "2026-11-27", id="grace-40-a-day-after"),
])
def test_s15_sale_overdue(run, cls, reported_on, notice_on, as_of, params, fires, first, due):
    fs = run(impoundments=[case(animal_class=cls)], as_of=as_of, params=params,
             police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)])
    expect(fs, "S15-SALE-OVERDUE", fires, kind="case", subject="C1", on=due,
           says=("C1", cls, f"from {page_day(first)}", f"by {page_day(as_of)}"))


def test_s15_sale_overdue_not_once_an_auction_was_attempted(run):
    fs = run(impoundments=[case()], sales=[rejected(disposal_note="to be re-auctioned")], **S15)
    # the head still in the pound on 30-11, past the sale's grace (17-11), after an attempt: R26's finding
    expect(fs, "S15-SALE-OVERDUE", False, also=["HEADS-LEFT-IN-POUND"])


# ==============================================================================================
# S15-BID-REJECTED-UNRESOLVED

# (as of 30-11, past the sale's grace: a head no row takes out of the pound is also left there, R26)
@pytest.mark.parametrize("note, later_sale, release, fires, also", [
    pytest.param("", None, None, True, [HEADS_LEFT], id="nothing-after"),
    pytest.param("handed to goshala", None, None, False, [HEADS_LEFT], id="disposal-noted"),
    pytest.param("", "2026-10-25", None, False, [], id="later-auction"),
    pytest.param("", "2026-10-18", None, False, [], id="later-auction-same-day"),
    pytest.param("", None, "2026-10-18", False, [], id="release-same-day"),
])
def test_s15_bid_rejected_unresolved(run, note, later_sale, release, fires, also):
    tables = {"impoundments": [case()], "sales": [rejected(disposal_note=note)], **S15}
    if later_sale:
        tables["sales"].append(sale("S2", sale_on=later_sale))
    if release:
        tables["releases"] = [rel(released_on=release, charges_paid="3600")]
    fs = run(**tables)
    expect(fs, "S15-BID-REJECTED-UNRESOLVED", fires, kind="sale", subject="S1", on="2026-10-18", also=also,
           says=("Rs 100.00", "S1", "C1", "18-10-2026", "rejected"))


@pytest.mark.parametrize("owner_appeared", [False, True])
def test_s15_rules_never_apply_once_the_owner_appeared_and_refused(run, owner_appeared):
    # reported on D+4 (early), no notice (missing), an s.15 auction on D+5 (early) with its bid
    # rejected and nothing after (unresolved); with an s.17 attempt on D+2 the owner appeared
    sales = [rejected(sale_on="2026-10-06")]
    if owner_appeared:
        sales.insert(0, rejected("S0", path="s17_refusal", sale_on="2026-10-03"))
    fs = run(impoundments=[case()], sales=sales,
             police_reports=[report(reported_on="2026-10-05", notice_on="", proclamation_on="")])
    for f in fs:
        assert (f["section"], f["severity"]) == SPEC[f["rule_id"]], f
    got = sorted((f["rule_id"], f["subject_id"]) for f in fs)
    if owner_appeared:
        assert got == [], got
    else:
        assert got == [("S15-BID-REJECTED-UNRESOLVED", "S1"), ("S15-NOTICE-MISSING", "C1"),
                       ("S15-REPORT-EARLY", "C1"), ("S15-SALE-EARLY", "S1")], got


# ==============================================================================================
# S15-SALE-UNPROCLAIMED (R7 of the second reading): an accepted s.15 sale with no notice or no
# proclamation by beat of drum on or before its day (s.15(2), s.15(3)). The sale is on 10-18,
# the earliest lawful day after a notice of 10-10 (10-10 + 7 + 1).

@pytest.mark.parametrize("proclamation_on, accepted, fires, also, what", [
    pytest.param("2026-10-10", "yes", False, (), "", id="proclaimed-with-the-notice"),
    # the owner's days run from the proclamation (R25): a sale on its day or after it is early too
    pytest.param("2026-10-18", "yes", False, ("S15-SALE-EARLY",), "", id="proclaimed-on-the-sale-day"),
    pytest.param("2026-10-19", "yes", True, ("S15-NOTICE-MISSING", "S15-SALE-EARLY"), "no proclamation by beat of drum",
                 id="proclaimed-the-day-after"),
    pytest.param("", "yes", True, ("S15-NOTICE-MISSING",), "no proclamation by beat of drum", id="never-proclaimed"),
    pytest.param("", "no", False, ("S15-NOTICE-MISSING", "S15-BID-REJECTED-UNRESOLVED", HEADS_LEFT), "",
                 id="a-rejected-bid-sells-nothing"),
])
def test_s15_sale_unproclaimed(run, proclamation_on, accepted, fires, also, what):
    fs = run(impoundments=[case()], sales=[sale(accepted=accepted)],
             police_reports=[report(proclamation_on=proclamation_on)])
    expect(fs, "S15-SALE-UNPROCLAIMED", fires, kind="sale", subject="S1", on="2026-10-18", also=also,
           says=("S1", "C1", "18-10-2026", what, "s.15(2)"))


# R25 of the fourth reading: the proclamation at the market place near the place of seizure, in a file that
# has the column market_proclamation_on (a file without it records one proclamation for both places, as
# every test above). The village's is made with the notice on 10-10; the sale is on 10-18.

@pytest.mark.parametrize("market_on, fires, also", [
    pytest.param("2026-10-10", False, (), id="market-proclaimed-with-the-notice"),
    pytest.param("2026-10-17", False, ("S15-SALE-EARLY",), id="market-the-day-before-the-sale"),
    pytest.param("2026-10-18", False, ("S15-SALE-EARLY",), id="market-on-the-sale-day"),
    pytest.param("2026-10-19", True, ("S15-SALE-EARLY",), id="market-the-day-after"),
    pytest.param("", True, (), id="market-never-proclaimed"),
])
def test_s15_sale_unproclaimed_at_the_market_place(run, market_on, fires, also):
    r = {**report(), "market_proclamation_on": market_on}
    fs = run(impoundments=[case(place_of_seizure="Kabini canal road")], sales=[sale()], police_reports=[r])
    expect(fs, "S15-SALE-UNPROCLAIMED", fires, kind="sale", subject="S1", on="2026-10-18", also=also,
           says=("S1", "C1", "18-10-2026", "no proclamation by beat of drum at the market place near Kabini canal road"))


# The owner's w days run from the latest of the notice and the proclamations (R25): notice on 10-10, a
# proclamation on 10-11 (in the village, for both places in a file without the market's column; or at the
# market place only): the sale is allowed from 10-11 + 7 + 1 = 10-19.
@pytest.mark.parametrize("village_on, market_on, sale_on, early", [
    pytest.param("2026-10-11", None, "2026-10-18", True, id="one-proclamation-a-day-before"),
    pytest.param("2026-10-11", None, "2026-10-19", False, id="one-proclamation-on-the-day"),
    pytest.param("2026-10-11", None, "2026-10-20", False, id="one-proclamation-a-day-after"),
    pytest.param("2026-10-10", "2026-10-11", "2026-10-18", True, id="market-later-a-day-before"),
    pytest.param("2026-10-10", "2026-10-11", "2026-10-19", False, id="market-later-on-the-day"),
    pytest.param("2026-10-10", "2026-10-11", "2026-10-20", False, id="market-later-a-day-after"),
])
def test_s15_sale_early_counts_from_the_last_proclamation(run, village_on, market_on, sale_on, early):
    r = report(proclamation_on=village_on)
    if market_on is not None:
        r["market_proclamation_on"] = market_on
    fs = run(impoundments=[case()], sales=[sale(sale_on=sale_on)], police_reports=[r])
    expect(fs, "S15-SALE-EARLY", early, kind="sale", subject="S1", on=sale_on,
           says=("S1", "C1", "19-10-2026", "the last proclamation by beat of drum on 11-10-2026"))


# ==============================================================================================
# R5 of the second reading: a disposal after a rejected bid (s.15(3) proviso), path s15_disposal.
# S1: the bid of Rs 100 on 10-18 rejected; S2: the one head handed to a gaushala for nothing.

GAUSHALA = {"path": "s15_disposal", "bid_amount": "0", "buyer_name": "", "disposal_note": "handed to the Nanjangud gaushala"}


@pytest.mark.parametrize("rejected_on, disposed_on, fires, also", [
    pytest.param("2026-10-18", "2026-10-20", False, (), id="after-a-rejected-bid"),
    pytest.param("2026-10-18", "2026-10-18", False, (), id="the-day-of-the-rejected-bid"),
    # the bid rejected after the disposal is left with nothing recorded after it
    pytest.param("2026-10-19", "2026-10-18", True, ("S15-BID-REJECTED-UNRESOLVED",), id="a-day-before-the-rejected-bid"),
    pytest.param(None, "2026-10-20", True, (), id="no-rejected-bid"),
])
def test_s15_disposal_without_rejected_bid(run, rejected_on, disposed_on, fires, also):
    sales = [sale("S2", sale_on=disposed_on, **GAUSHALA)]
    if rejected_on:
        sales.insert(0, rejected(sale_on=rejected_on))
    fs = run(impoundments=[case()], sales=sales, **S15)
    expect(fs, "S15-DISPOSAL-WITHOUT-REJECTED-BID", fires, kind="sale", subject="S2", on=disposed_on, also=also,
           says=("S2", "C1", page_day(disposed_on), "Rs 0.00", "gaushala", "no rejected bid"))


@pytest.mark.parametrize("disposal, fires", [
    pytest.param(True, False, id="a-disposal-follows"),
    pytest.param(False, True, id="nothing-follows"),
])
def test_s15_bid_rejected_unresolved_is_resolved_by_a_disposal(run, disposal, fires):
    # the disposal row on the day of the rejected bid, with an id before it: still a disposal that follows
    sales = [rejected("S5", sale_on="2026-10-18")] + ([sale("S1", sale_on="2026-10-18", **GAUSHALA)] if disposal else [])
    fs = run(impoundments=[case()], sales=sales, **S15)
    expect(fs, "S15-BID-REJECTED-UNRESOLVED", fires, kind="sale", subject="S5", on="2026-10-18", says=("S5",),
           also=[] if disposal else [HEADS_LEFT])
