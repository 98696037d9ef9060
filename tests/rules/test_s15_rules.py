"""The s.15 rules: the police report, the notice, the sale and rejected bids.

A firing bundle and its near miss each, declared as data (scenarios.Given); the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import case
from rule_rows import S15, SPEC, day, expect, page_day, rejected, rel, report, sale
from scenarios import Given

HEADS_LEFT = "HEADS-LEFT-IN-POUND"    # R26: a head still in the pound after the case was acted on


def _by_rule(*lists) -> list[Given]:
    return [g for given in lists for g in given]


# ==============================================================================================
# S15-REPORT-MISSING: unclaimed, never reported, still in the pound after D+w+1+report_grace

def _report_missing(name, cls, as_of, params, fires, due, w) -> Given:
    grace = params.get("report_grace", 0)
    return Given(name, dict(impoundments=[case(animal_class=cls)]),
                 dict(rule_id="S15-REPORT-MISSING", fires=fires, kind="case", subject="C1",
                      on=day(due) + dt.timedelta(days=grace),
                      says=("C1", cls, "01-10-2026", f"{w} days", f"due on {page_day(due)}",
                            f"in the pound on {page_day(as_of)}")),
                 as_of=as_of, params=params)


S15_REPORT_MISSING = [
    *(_report_missing(*c) for c in (
        ("cattle-on-the-due-day", "cattle", "2026-10-09", {}, False, "2026-10-09", 7),
        ("cattle-a-day-after", "cattle", "2026-10-10", {}, True, "2026-10-09", 7),
        ("ass-on-the-due-day", "ass", "2026-10-05", {}, False, "2026-10-05", 3),
        ("ass-a-day-after", "ass", "2026-10-06", {}, True, "2026-10-05", 3),
        ("sheep-a-day-after", "sheep", "2026-10-06", {}, True, "2026-10-05", 3),
        ("goat-is-a-7-day-class", "goat", "2026-10-06", {}, False, "2026-10-09", 7),
        ("goat-made-a-3-day-class-by-parameter", "goat", "2026-10-06", {"short_classes": ["ass", "sheep", "goat"]},
         True, "2026-10-05", 3),
        ("grace-2-last-day", "cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 7),
        ("grace-2-a-day-after", "cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 7))),
    *(Given(name, dict(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid=charges)]),
            dict(rule_id="S15-REPORT-MISSING", fires=fires, kind="case", subject="C1", on="2026-10-09",
                 says=("C1", "due on 09-10-2026", f"until {page_day(released_on)}")))
      for name, released_on, charges, fires in (("released-on-the-report-day", "2026-10-09", "1800", False),
                                                ("released-a-day-after", "2026-10-10", "2000", True))),
    Given("not-when-the-owner-appeared-and-refused",
          dict(impoundments=[case()], sales=[rejected(path="s17_refusal", sale_on="2026-10-20")]),
          dict(rule_id="S15-REPORT-MISSING", fires=False)),
]


# ==============================================================================================
# S15-REPORT-LATE: reported_on > D+w+1+report_grace

def _reported_on(cls, reported_on) -> dict:
    return dict(impoundments=[case(animal_class=cls)],
                police_reports=[report(reported_on=reported_on, notice_on=reported_on, proclamation_on=reported_on)])


S15_REPORT_LATE = [
    Given(name, _reported_on(cls, reported_on),
          dict(rule_id="S15-REPORT-LATE", fires=fires, kind="case", subject="C1", on=reported_on,
               says=("C1", cls, "01-10-2026", f"on {page_day(reported_on)}", f"{late} day(s)",
                     f"due on {page_day(due)}")),
          as_of="2026-10-20", params=params)
    for name, cls, reported_on, params, fires, due, late in (
        ("cattle-on-the-due-day", "cattle", "2026-10-09", {}, False, "2026-10-09", 0),
        ("cattle-a-day-late", "cattle", "2026-10-10", {}, True, "2026-10-09", 1),
        ("ass-on-the-due-day", "ass", "2026-10-05", {}, False, "2026-10-05", 0),
        ("ass-a-day-late", "ass", "2026-10-06", {}, True, "2026-10-05", 1),
        ("grace-2-last-day", "cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 2),
        ("grace-2-a-day-after", "cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 3))
]


# ==============================================================================================
# S15-REPORT-EARLY: reported_on <= D+w

S15_REPORT_EARLY = [
    Given(name, _reported_on(cls, reported_on),
          dict(rule_id="S15-REPORT-EARLY", fires=fires, kind="case", subject="C1", on=reported_on,
               says=("C1", cls, "01-10-2026", f"on {page_day(reported_on)}", f"until {page_day(until)}")),
          as_of="2026-10-20", params=params)
    for name, cls, reported_on, params, fires, until in (
        ("cattle-on-the-last-claim-day", "cattle", "2026-10-08", {}, True, "2026-10-08"),
        ("cattle-on-the-due-day", "cattle", "2026-10-09", {}, False, ""),
        ("sheep-on-the-last-claim-day", "sheep", "2026-10-04", {}, True, "2026-10-04"),
        ("sheep-on-the-due-day", "sheep", "2026-10-05", {}, False, ""),
        ("count-first-day-fires", "cattle", "2026-10-07", {"count_first_day": True}, True, "2026-10-07"),
        ("count-first-day-moves-it", "cattle", "2026-10-08", {"count_first_day": True}, False, ""))
]


# ==============================================================================================
# S15-NOTICE-MISSING

S15_NOTICE_MISSING = [
    *(Given(name, dict(impoundments=[case()],
                       police_reports=[report(notice_on=notice_on, proclamation_on=proclamation_on)]),
            dict(rule_id="S15-NOTICE-MISSING", fires=fires, kind="case", subject="C1", on=due,
                 says=("C1", "09-10-2026", what, f"due by {page_day(due)}")),
            as_of=as_of, params=params)
      for name, notice_on, proclamation_on, as_of, params, fires, what, due in (
          ("within-grace", "2026-10-10", "", "2026-10-11", {}, False, "", ""),
          ("proclamation-missing-after-grace", "2026-10-10", "", "2026-10-12", {}, True,
           "the proclamation by beat of drum is", "2026-10-11"),
          ("notice-missing-after-grace", "", "2026-10-10", "2026-10-12", {}, True, "the notice is", "2026-10-11"),
          ("both-missing", "", "", "2026-10-12", {}, True, "neither the notice nor the proclamation by beat of drum is",
           "2026-10-11"),
          ("grace-5-last-day", "2026-10-10", "", "2026-10-14", {"notice_grace": 5}, False, "", ""),
          ("grace-5-a-day-after", "2026-10-10", "", "2026-10-15", {"notice_grace": 5}, True,
           "the proclamation by beat of drum is", "2026-10-14"))),
    # the sale made before the proclamation is itself unlawful (S15-SALE-UNPROCLAIMED, R7); and the owner's
    # days run from the last proclamation (R25), so a sale on its day or before it is early too
    *(Given(f"proclamation-after-the-first-auction-{name}",
            dict(impoundments=[case()], police_reports=[report(proclamation_on=proclamation_on)], sales=[sale()]),
            dict(rule_id="S15-NOTICE-MISSING", fires=fires, kind="case", subject="C1", on=proclamation_on,
                 also=["S15-SALE-EARLY"] + (["S15-SALE-UNPROCLAIMED"] if fires else []),
                 says=("C1", "proclamation", "19-10-2026", "auction", "18-10-2026")))
      for name, proclamation_on, fires in (("on-its-day", "2026-10-18", False), ("a-day-after", "2026-10-19", True))),
]


# ==============================================================================================
# S15-NOTICE-BEFORE-REPORT (R24): the notice or the proclamation dated before the report (C1 reported on its
# due day, 09-10-2026); the same day is in order

S15_NOTICE_BEFORE_REPORT = [
    *(Given(name, dict(impoundments=[case()],
                       police_reports=[report(notice_on=notice_on, proclamation_on=proclamation_on)]),
            dict(rule_id="S15-NOTICE-BEFORE-REPORT", fires=fires, kind="case", subject="C1", on="2026-10-09",
                 says=("C1", "reported to the police on 09-10-2026", what, "s.15(2)", "7 days run from the report")),
            as_of="2026-10-12")
      for name, notice_on, proclamation_on, fires, what in (
          ("notice-a-day-before", "2026-10-08", "2026-10-10", True, "the notice is dated 08-10-2026"),
          ("notice-the-same-day", "2026-10-09", "2026-10-10", False, ""),
          ("notice-a-day-after", "2026-10-10", "2026-10-10", False, ""),
          ("proclamation-a-day-before", "2026-10-10", "2026-10-08", True,
           "the proclamation by beat of drum is dated 08-10-2026"),
          ("proclamation-the-same-day", "2026-10-10", "2026-10-09", False, ""),
          ("both-before", "2026-10-07", "2026-10-08", True,
           "the notice is dated 07-10-2026 and the proclamation by beat of drum 08-10-2026"))),
    # R25: the proclamation at the market place is given on receipt of the report too
    *(Given(name, dict(impoundments=[case()],
                       police_reports=[{**report(notice_on="2026-10-10", proclamation_on="2026-10-10"),
                                        "market_proclamation_on": market_on}]),
            dict(rule_id="S15-NOTICE-BEFORE-REPORT", fires=fires, kind="case", subject="C1", on="2026-10-09",
                 says=("C1", "the proclamation by beat of drum at the market place is dated 08-10-2026")),
            as_of="2026-10-12")
      for name, market_on, fires in (("market-a-day-before", "2026-10-08", True),
                                     ("market-the-same-day", "2026-10-09", False),
                                     ("market-a-day-after", "2026-10-10", False))),
    # the notice is the officer's act: an s.17 attempt afterwards does not undo it
    Given("even-where-the-owner-came-and-refused",
          dict(impoundments=[case()], police_reports=[report(notice_on="2026-10-08")],
               sales=[rejected(path="s17_refusal", sale_on="2026-10-11")]),
          dict(rule_id="S15-NOTICE-BEFORE-REPORT", fires=True, kind="case", subject="C1", on="2026-10-09"),
          as_of="2026-10-12"),
]


# ==============================================================================================
# S15-SALE-EARLY: an s15 attempt before notice + w + 1

S15_SALE_EARLY = [
    # notice on 08-10, a day before the report: the owner's 7 days run from the report (09-10), so the
    # auction is allowed from 17-10, not from 08-10 + 8 = 16-10; the twin: a notice on the report's day runs
    # from that day, as before
    *(Given(name, dict(impoundments=[case()], police_reports=[report(notice_on=notice_on, proclamation_on="2026-10-09")],
                       sales=[sale(sale_on=sale_on)]),
            dict(rule_id="S15-SALE-EARLY", fires=early, kind="sale", subject="S1", on=sale_on,
                 also=["S15-NOTICE-BEFORE-REPORT"] if notice_on < "2026-10-09" else [],
                 says=("earliest lawful day 17-10-2026", "notice on 08-10-2026, before the report of 09-10-2026")))
      for name, notice_on, sale_on, early in (
          ("notice-before-report-sale-on-notice-plus-8", "2026-10-08", "2026-10-16", True),
          ("notice-before-report-sale-on-report-plus-8", "2026-10-08", "2026-10-17", False),
          ("notice-with-the-report-sale-on-report-plus-8", "2026-10-09", "2026-10-17", False))),
    *(Given(name, dict(impoundments=[case(animal_class=cls)],
                       police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)],
                       sales=[sale(sale_on=sale_on)]),
            dict(rule_id="S15-SALE-EARLY", fires=fires, kind="sale", subject="S1", on=sale_on,
                 says=("S1", "C1", f"on {page_day(sale_on)}", f"earliest lawful day {page_day(earliest)}",
                       f"notice on {page_day(notice_on)}", f"{w} days")))
      for name, cls, reported_on, notice_on, sale_on, fires, earliest, w in (
          ("cattle-a-day-early", "cattle", "2026-10-09", "2026-10-10", "2026-10-17", True, "2026-10-18", 7),
          ("cattle-earliest-day", "cattle", "2026-10-09", "2026-10-10", "2026-10-18", False, "", 7),
          ("ass-a-day-early", "ass", "2026-10-05", "2026-10-06", "2026-10-09", True, "2026-10-10", 3),
          ("ass-earliest-day", "ass", "2026-10-05", "2026-10-06", "2026-10-10", False, "", 3))),
    *(Given(f"rejected-attempts-count-{name}",
            dict(impoundments=[case()], **S15,
                 sales=[rejected(sale_on=first_on, disposal_note="re-auctioned"), sale("S2", sale_on="2026-10-25")]),
            dict(rule_id="S15-SALE-EARLY", fires=fires, kind="sale", subject="S1", on=first_on,
                 says=("S1", "17-10-2026", "18-10-2026")))
      for name, first_on, fires in (("on-the-earliest-day", "2026-10-18", False), ("a-day-early", "2026-10-17", True))),
    Given("without-notice", dict(impoundments=[case()], police_reports=[report(notice_on="")], sales=[sale()]),
          dict(rule_id="S15-SALE-EARLY", fires=True, kind="sale", subject="S1", on="2026-10-18",
               says=("S1", "C1", "18-10-2026", "no notice"), also=["S15-NOTICE-MISSING", "S15-SALE-UNPROCLAIMED"])),
]


# ==============================================================================================
# S15-SALE-OVERDUE: no attempt by notice + w + 1 + sale_grace

S15_SALE_OVERDUE = [
    *(Given(name, dict(impoundments=[case(animal_class=cls)],
                       police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)]),
            dict(rule_id="S15-SALE-OVERDUE", fires=fires, kind="case", subject="C1", on=due,
                 says=("C1", cls, f"from {page_day(first)}", f"by {page_day(as_of)}")),
            as_of=as_of, params=params)
      for name, cls, reported_on, notice_on, as_of, params, fires, first, due in (
          ("cattle-last-day", "cattle", "2026-10-09", "2026-10-10", "2026-11-17", {}, False, "", ""),
          ("cattle-a-day-after", "cattle", "2026-10-09", "2026-10-10", "2026-11-18", {}, True, "2026-10-18",
           "2026-11-17"),
          ("ass-last-day", "ass", "2026-10-05", "2026-10-06", "2026-11-09", {}, False, "", ""),
          ("ass-a-day-after", "ass", "2026-10-05", "2026-10-06", "2026-11-10", {}, True, "2026-10-10", "2026-11-09"),
          ("grace-40-last-day", "cattle", "2026-10-09", "2026-10-10", "2026-11-27", {"sale_grace": 40}, False, "", ""),
          ("grace-40-a-day-after", "cattle", "2026-10-09", "2026-10-10", "2026-11-28", {"sale_grace": 40}, True,
           "2026-10-18", "2026-11-27"))),
    # the head still in the pound on 30-11, past the sale's grace (17-11), after an attempt: R26's finding
    Given("not-once-an-auction-was-attempted",
          dict(impoundments=[case()], sales=[rejected(disposal_note="to be re-auctioned")], **S15),
          dict(rule_id="S15-SALE-OVERDUE", fires=False, also=["HEADS-LEFT-IN-POUND"])),
]


# ==============================================================================================
# S15-BID-REJECTED-UNRESOLVED

# (as of 30-11, past the sale's grace: a head no row takes out of the pound is also left there, R26)
def _unresolved(name, note, later_sale, release, fires, also) -> Given:
    rows = {"impoundments": [case()], "sales": [rejected(disposal_note=note)], **S15}
    if later_sale:
        rows["sales"].append(sale("S2", sale_on=later_sale))
    if release:
        rows["releases"] = [rel(released_on=release, charges_paid="3600")]
    return Given(name, rows, dict(rule_id="S15-BID-REJECTED-UNRESOLVED", fires=fires, kind="sale", subject="S1",
                                  on="2026-10-18", also=also, says=("Rs 100.00", "S1", "C1", "18-10-2026", "rejected")))


GAUSHALA = {"path": "s15_disposal", "bid_amount": "0", "buyer_name": "", "disposal_note": "handed to the Nanjangud gaushala"}

S15_BID_REJECTED_UNRESOLVED = [
    *(_unresolved(*c) for c in (
        ("nothing-after", "", None, None, True, [HEADS_LEFT]),
        ("disposal-noted", "handed to goshala", None, None, False, [HEADS_LEFT]),
        ("later-auction", "", "2026-10-25", None, False, []),
        ("later-auction-same-day", "", "2026-10-18", None, False, []),
        ("release-same-day", "", None, "2026-10-18", False, []))),
    # the disposal row on the day of the rejected bid, with an id before it: still a disposal that follows
    *(Given(f"resolved-by-a-disposal-{name}",
            dict(impoundments=[case()], **S15, sales=[rejected("S5", sale_on="2026-10-18")]
                 + ([sale("S1", sale_on="2026-10-18", **GAUSHALA)] if disposal else [])),
            dict(rule_id="S15-BID-REJECTED-UNRESOLVED", fires=fires, kind="sale", subject="S5", on="2026-10-18",
                 says=("S5",), also=[] if disposal else [HEADS_LEFT]))
      for name, disposal, fires in (("a-disposal-follows", True, False), ("nothing-follows", False, True))),
]


# ==============================================================================================
# S15-SALE-UNPROCLAIMED (R7 of the second reading): an accepted s.15 sale with no notice or no
# proclamation by beat of drum on or before its day (s.15(2), s.15(3)). The sale is on 10-18,
# the earliest lawful day after a notice of 10-10 (10-10 + 7 + 1).

S15_SALE_UNPROCLAIMED = [
    *(Given(name, dict(impoundments=[case()], sales=[sale(accepted=accepted)],
                       police_reports=[report(proclamation_on=proclamation_on)]),
            dict(rule_id="S15-SALE-UNPROCLAIMED", fires=fires, kind="sale", subject="S1", on="2026-10-18", also=also,
                 says=("S1", "C1", "18-10-2026", what, "s.15(2)")))
      for name, proclamation_on, accepted, fires, also, what in (
          ("proclaimed-with-the-notice", "2026-10-10", "yes", False, (), ""),
          # the owner's days run from the proclamation (R25): a sale on its day or after it is early too
          ("proclaimed-on-the-sale-day", "2026-10-18", "yes", False, ("S15-SALE-EARLY",), ""),
          ("proclaimed-the-day-after", "2026-10-19", "yes", True, ("S15-NOTICE-MISSING", "S15-SALE-EARLY"),
           "no proclamation by beat of drum"),
          ("never-proclaimed", "", "yes", True, ("S15-NOTICE-MISSING",), "no proclamation by beat of drum"),
          ("a-rejected-bid-sells-nothing", "", "no", False,
           ("S15-NOTICE-MISSING", "S15-BID-REJECTED-UNRESOLVED", HEADS_LEFT), ""))),
    # R25 of the fourth reading: the proclamation at the market place near the place of seizure, in a file that
    # has the column market_proclamation_on (a file without it records one proclamation for both places, as
    # every test above). The village's is made with the notice on 10-10; the sale is on 10-18.
    *(Given(name, dict(impoundments=[case(place_of_seizure="Kabini canal road")], sales=[sale()],
                       police_reports=[{**report(), "market_proclamation_on": market_on}]),
            dict(rule_id="S15-SALE-UNPROCLAIMED", fires=fires, kind="sale", subject="S1", on="2026-10-18", also=also,
                 says=("S1", "C1", "18-10-2026",
                       "no proclamation by beat of drum at the market place near Kabini canal road")))
      for name, market_on, fires, also in (
          ("market-proclaimed-with-the-notice", "2026-10-10", False, ()),
          ("market-the-day-before-the-sale", "2026-10-17", False, ("S15-SALE-EARLY",)),
          ("market-on-the-sale-day", "2026-10-18", False, ("S15-SALE-EARLY",)),
          ("market-the-day-after", "2026-10-19", True, ("S15-SALE-EARLY",)),
          ("market-never-proclaimed", "", True, ()))),
]


# The owner's w days run from the latest of the notice and the proclamations (R25): notice on 10-10, a
# proclamation on 10-11 (in the village, for both places in a file without the market's column; or at the
# market place only): the sale is allowed from 10-11 + 7 + 1 = 10-19.
def _proclaimed(village_on, market_on) -> dict:
    r = report(proclamation_on=village_on)
    if market_on is not None:
        r["market_proclamation_on"] = market_on
    return r


S15_SALE_EARLY_FROM_THE_LAST_PROCLAMATION = [
    Given(f"from-the-last-proclamation-{name}",
          dict(impoundments=[case()], sales=[sale(sale_on=sale_on)], police_reports=[_proclaimed(village_on, market_on)]),
          dict(rule_id="S15-SALE-EARLY", fires=early, kind="sale", subject="S1", on=sale_on,
               says=("S1", "C1", "19-10-2026", "the last proclamation by beat of drum on 11-10-2026")))
    for name, village_on, market_on, sale_on, early in (
        ("one-proclamation-a-day-before", "2026-10-11", None, "2026-10-18", True),
        ("one-proclamation-on-the-day", "2026-10-11", None, "2026-10-19", False),
        ("one-proclamation-a-day-after", "2026-10-11", None, "2026-10-20", False),
        ("market-later-a-day-before", "2026-10-10", "2026-10-11", "2026-10-18", True),
        ("market-later-on-the-day", "2026-10-10", "2026-10-11", "2026-10-19", False),
        ("market-later-a-day-after", "2026-10-10", "2026-10-11", "2026-10-20", False))
]


# ==============================================================================================
# R5 of the second reading: a disposal after a rejected bid (s.15(3) proviso), path s15_disposal.
# S1: the bid of Rs 100 on 10-18 rejected; S2: the one head handed to a gaushala for nothing.

S15_DISPOSAL_WITHOUT_REJECTED_BID = [
    Given(name, dict(impoundments=[case()], **S15,
                     sales=([rejected(sale_on=rejected_on)] if rejected_on else [])
                     + [sale("S2", sale_on=disposed_on, **GAUSHALA)]),
          dict(rule_id="S15-DISPOSAL-WITHOUT-REJECTED-BID", fires=fires, kind="sale", subject="S2", on=disposed_on,
               also=also, says=("S2", "C1", page_day(disposed_on), "Rs 0.00", "gaushala", "no rejected bid")))
    for name, rejected_on, disposed_on, fires, also in (
        ("after-a-rejected-bid", "2026-10-18", "2026-10-20", False, ()),
        ("the-day-of-the-rejected-bid", "2026-10-18", "2026-10-18", False, ()),
        # the bid rejected after the disposal is left with nothing recorded after it
        ("a-day-before-the-rejected-bid", "2026-10-19", "2026-10-18", True, ("S15-BID-REJECTED-UNRESOLVED",)),
        ("no-rejected-bid", None, "2026-10-20", True, ()))
]


@pytest.mark.parametrize("given", _by_rule(
    S15_REPORT_MISSING, S15_REPORT_LATE, S15_REPORT_EARLY, S15_NOTICE_MISSING, S15_NOTICE_BEFORE_REPORT,
    S15_SALE_EARLY, S15_SALE_EARLY_FROM_THE_LAST_PROCLAMATION, S15_SALE_OVERDUE, S15_BID_REJECTED_UNRESOLVED,
    S15_SALE_UNPROCLAIMED, S15_DISPOSAL_WITHOUT_REJECTED_BID), ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s15_rules(given, findings):
    expect(findings(given), **given.expected)


# no report recorded (S15-REPORT-MISSING too), but a proclamation after the auction is still a finding
NOTICE_MISSING_WITHOUT_A_REPORT = [
    Given("proclamation-after-the-auction-without-a-report",
          dict(impoundments=[case()], police_reports=[report(reported_on="", proclamation_on="2026-10-19")],
               sales=[sale()]),
          dict(rule_id="S15-NOTICE-MISSING", fires=True, subject="C1", on="2026-10-19",
               rules=["S15-NOTICE-MISSING", "S15-REPORT-MISSING", "S15-SALE-UNPROCLAIMED", "S15-SALE-EARLY"])),
]


@pytest.mark.parametrize("given", NOTICE_MISSING_WITHOUT_A_REPORT, ids=str)
def test_s15_notice_missing_proclamation_after_the_auction_without_a_report(given, findings):
    """The finding among them, and the rules found exactly those named (each however many times)."""
    e = given.expected
    got = sorted((f["rule_id"], f["subject_id"], str(f["event_on"])) for f in findings(given))
    assert (e["rule_id"], e["subject"], e["on"]) in got
    assert {g[0] for g in got} == set(e["rules"]), got


# reported on D+4 (early), no notice (missing), an s.15 auction on D+5 (early) with its bid
# rejected and nothing after (unresolved); with an s.17 attempt on D+2 the owner appeared
OWNER_APPEARED_AND_REFUSED = [
    Given(name, dict(impoundments=[case()],
                     sales=([rejected("S0", path="s17_refusal", sale_on="2026-10-03")] if appeared else [])
                     + [rejected(sale_on="2026-10-06")],
                     police_reports=[report(reported_on="2026-10-05", notice_on="", proclamation_on="")]),
          dict(rule_id="S15-BID-REJECTED-UNRESOLVED", fires=not appeared, found=found))
    for name, appeared, found in (
        ("owner-not-appeared", False, [("S15-BID-REJECTED-UNRESOLVED", "S1"), ("S15-NOTICE-MISSING", "C1"),
                                       ("S15-REPORT-EARLY", "C1"), ("S15-SALE-EARLY", "S1")]),
        ("owner-appeared", True, []))
]


@pytest.mark.parametrize("given", OWNER_APPEARED_AND_REFUSED, ids=str)
def test_s15_rules_never_apply_once_the_owner_appeared_and_refused(given, findings):
    """`found`: every finding of the bundle, (rule, subject), in order."""
    fs = findings(given)
    for f in fs:
        assert (f["section"], f["severity"]) == SPEC[f["rule_id"]], f
    got = sorted((f["rule_id"], f["subject_id"]) for f in fs)
    assert got == given.expected["found"], got
