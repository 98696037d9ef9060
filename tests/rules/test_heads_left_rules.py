"""HEADS-LEFT-IN-POUND (R26 of the fourth reading: s.15(3), s.17(1) "shall be sold"): heads of a case
still in the pound after the case was acted on. C1: cattle impounded 01-10-2026 (w = 7), reported on
09-10, notice and proclamation on 10-10, so the sale is allowed from 10-18 and, with sale_grace 30, due
by 17-11. Each trigger is tested on its boundary day and a day either side, with a near-miss twin.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, day, expect, rejected, rel, report, sale

RULE = "HEADS-LEFT-IN-POUND"


def found(fs: list[dict]) -> list[dict]:
    for f in fs:
        if f["rule_id"] == RULE:
            assert (f["section"], f["subject_kind"], f["subject_id"]) == ("15(3)", "case", "C1"), f
    return [f for f in fs if f["rule_id"] == RULE]


# (a) 2 head, one sold on 10-18 (the first lawful day): the other is left. Due by 17-11 (10-18 + 30).
@pytest.mark.parametrize("as_of, sold, fires", [
    pytest.param("2026-11-16", 1, False, id="a-day-before-the-grace-ends"),
    pytest.param("2026-11-17", 1, False, id="on-the-grace-s-last-day"),
    pytest.param("2026-11-18", 1, True, id="a-day-after"),
    pytest.param("2026-11-18", 2, False, id="twin-both-heads-sold"),
])
def test_heads_left_after_the_sale_was_due(run, as_of, sold, fires):
    fs = run(as_of=as_of, impoundments=[case(head_count=2)], sales=[sale(head_sold=sold, bid_amount="9000")], **S15)
    got = found(fs)
    assert len(got) == int(fires), [(f["rule_id"], f["detail"]) for f in fs]
    if fires:
        f = got[0]
        assert f["event_on"] == day("2026-11-17")
        # 1 head x Rs 200 x (18-11 - 18-10 = 31 days) = Rs 6,200: Rs 5,000 or more, high
        assert f["severity"] == "high"
        assert all(w in f["detail"] for w in ("1 of the 2 cattle", "C1", "18-11-2026", "18-10-2026", "Rs 6,200.00"))
    assert "S15-SALE-OVERDUE" not in [f["rule_id"] for f in fs]


# The Rs 5,000 line: with sale_grace 20 (due by 07-11), the head left from 18-10 has cost Rs 200 a day:
# 24 days on 11-11 (Rs 4,800, medium), 25 on 11-12 (Rs 5,000, high), 26 on 11-13 (Rs 5,200, high).
@pytest.mark.parametrize("as_of, severity, amount", [
    pytest.param("2026-11-11", "medium", "Rs 4,800.00", id="a-day-short-of-rs-5000"),
    pytest.param("2026-11-12", "high", "Rs 5,000.00", id="rs-5000-exactly"),
    pytest.param("2026-11-13", "high", "Rs 5,200.00", id="a-day-over"),
])
def test_heads_left_is_high_from_rs_5000_of_their_feeding(run, as_of, severity, amount):
    fs = run(as_of=as_of, params={"sale_grace": 20}, impoundments=[case(head_count=2)],
             sales=[sale(head_sold=1, bid_amount="9000")], **S15)
    got = found(fs)
    assert len(got) == 1 and got[0]["severity"] == severity and amount in got[0]["detail"], got


# (b) 2 head, one released on payment on 10-03 (within the claim window, so no S15-REPORT-MISSING): the
# other must be reported by 10-10 (10-03 + 7); a report made on or after the release is the near miss.
@pytest.mark.parametrize("as_of, reported_on, fires", [
    pytest.param("2026-10-09", None, False, id="a-day-before-w-days-run"),
    pytest.param("2026-10-10", None, False, id="on-the-w-th-day"),
    pytest.param("2026-10-11", None, True, id="a-day-after"),
    pytest.param("2026-10-11", "2026-10-03", False, id="twin-reported-on-the-release-day"),
    pytest.param("2026-10-11", "2026-10-02", True, id="reported-the-day-before-the-release"),
])
def test_heads_left_after_part_of_the_case_was_released(run, as_of, reported_on, fires):
    tables = {"impoundments": [case(head_count=2)], "releases": [rel(released_on="2026-10-03")]}
    if reported_on:
        tables["police_reports"] = [report(reported_on=reported_on, notice_on="", proclamation_on="")]
    fs = run(as_of=as_of, **tables)
    got = found(fs)
    assert len(got) == int(fires), [(f["rule_id"], f["detail"]) for f in fs]
    if fires:
        assert got[0]["event_on"] == day("2026-10-10")
        assert all(w in got[0]["detail"] for w in ("1 of the 2 cattle", "released on 03-10-2026", "7 days"))


def test_heads_left_after_a_release_is_not_named_where_the_report_is_missing(run):
    # one of 2 head released on 10-10, after the claim window (to 10-08) and the report's day (10-09): the
    # case is S15-REPORT-MISSING's, and is not named twice (R26)
    fs = run(as_of="2026-10-18", impoundments=[case(head_count=2)], releases=[rel(released_on="2026-10-10",
                                                                                  charges_paid="2000")])
    assert "S15-REPORT-MISSING" in [f["rule_id"] for f in fs]
    assert found(fs) == []


# (c) the bid of 10-18 rejected, its note naming 25-10 for the re-auction: resolved until then; after it,
# with no auction since, the head is left. An auction on the named day is the near miss.
@pytest.mark.parametrize("as_of, again, fires", [
    pytest.param("2026-10-24", False, False, id="a-day-before-the-named-day"),
    pytest.param("2026-10-25", False, False, id="on-the-named-day"),
    pytest.param("2026-10-26", False, True, id="a-day-after"),
    pytest.param("2026-10-26", True, False, id="twin-re-auctioned-on-the-day"),
])
def test_heads_left_after_the_day_a_disposal_note_names(run, as_of, again, fires):
    sales = [rejected(disposal_note="Bid below a fair price; re-auction on 25-10-2026")]
    if again:
        sales.append(sale("S2", sale_on="2026-10-25"))
    fs = run(as_of=as_of, impoundments=[case()], sales=sales, **S15)
    # nothing else: the note resolves S15-BID-REJECTED-UNRESOLVED; 1 head x Rs 200 x 8 days = Rs 1,600, medium
    expect(fs, "HEADS-LEFT-IN-POUND", fires, kind="case", subject="C1", on="2026-10-25", severity="medium",
           says=("1 of the 1 cattle", "26-10-2026", "disposal note of the rejected bid named 25-10-2026", "Rs 1,600.00"))


def test_a_case_never_acted_on_is_s15_sale_overdue_s_alone(run):
    fs = run(as_of="2026-11-18", impoundments=[case(head_count=2)], **S15)
    assert "S15-SALE-OVERDUE" in [f["rule_id"] for f in fs] and found(fs) == []
