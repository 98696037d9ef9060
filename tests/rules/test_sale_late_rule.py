"""S15-SALE-LATE (R20 of the fourth reading): an unclaimed case sold after the sale fell due.

C1: 1 head of cattle impounded 01-10-2026, reported 09-10, notice and proclamation 10-10: the sale is
allowed from 10-10 + 7 + 1 = 18-10 and falls due by 18-10 + sale_grace (30) = 17-11-2026. Feeding Rs 200 a
day (tests/helpers.py). A sale on 17-11 is on time; on 18-11 it is 1 day late, with Rs 200 of overdue
feeding (medium); Rs 5,000 of overdue feeding (25 days, 12-12) makes it high, Rs 4,800 (24 days) not.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, expect, sale
from scenarios import Given

AS_OF = "2026-12-31"

S15_SALE_LATE = [
    Given(name, dict(impoundments=[case()], sales=[sale(sale_on=sale_on, bid_amount="20000")], **S15),
          dict(rule_id="S15-SALE-LATE", fires=fires, kind="case", subject="C1", on=sale_on, severity=severity or None,
               says=("C1", "S1", f"{days} days after", overdue, "after the fines")),
          as_of=AS_OF, params=params)
    for name, sale_on, params, fires, days, overdue, severity in (
        ("the-day-before-the-due-day", "2026-11-16", {}, False, 0, "", ""),
        ("on-the-due-day", "2026-11-17", {}, False, 0, "", ""),
        ("a-day-after", "2026-11-18", {}, True, 1, "Rs 200.00", "medium"),
        ("below-the-rs-5000-line", "2026-12-11", {}, True, 24, "Rs 4,800.00", "medium"),
        ("on-the-rs-5000-line", "2026-12-12", {}, True, 25, "Rs 5,000.00", "high"),
        ("grace-40-on-the-due-day", "2026-11-27", {"sale_grace": 40}, False, 0, "", ""),
        ("grace-40-a-day-after", "2026-11-28", {"sale_grace": 40}, True, 1, "Rs 200.00", "medium"))
]


@pytest.mark.parametrize("given", S15_SALE_LATE, ids=str)
def test_s15_sale_late(given, findings):
    expect(findings(given), **given.expected)


NOT_LATE = [
    # the owner came and refused to pay: s.17 has no sale_grace, and the s.15 path's days do not bind it
    Given("not-for-an-s17-sale",
          dict(impoundments=[case()], sales=[sale(path="s17_refusal", sale_on="2026-12-12", bid_amount="20000",
                                                  owner_appeared_on="2026-12-01", balance_paid="")]),
          dict(rule_id="S15-SALE-LATE", fires=False), as_of=AS_OF),
    # an auction whose bid was rejected sells nothing: S15-BID-REJECTED-UNRESOLVED, not S15-SALE-LATE
    Given("a-rejected-attempt-after-the-due-day-is-not-a-sale",
          dict(impoundments=[case()], sales=[sale(sale_on="2026-11-20", head_sold=0, accepted="no", buyer_name="")],
               **S15),
          dict(rule_id="S15-SALE-LATE", fires=False), as_of=AS_OF),
]


@pytest.mark.parametrize("given", NOT_LATE, ids=str)
def test_s15_sale_late_is_not_found(given, findings):
    """Only that S15-SALE-LATE is silent: the other findings of these bundles are not the point."""
    assert given.expected["rule_id"] not in [f["rule_id"] for f in findings(given)]
