"""REL-UNPAID on the s.17 remainder delivered after the sale (R27 of the fourth reading: s.17(3), s.12(1)).

C1: 2 cattle impounded 01-10-2026; the owner appears on 10-10 and refuses to pay; 1 head is sold under
s.17 that day for Rs 20,000, paying the feeding of both heads to 10-10 (2 x 10 days x 200 = 4,000) and their
fines (1,200): balance 14,800, paid. The other head is delivered as the remainder on day R and owes
1 x 200 x (R - 10-10) of feeding as charges payable at its release: nothing on the sale day, Rs 200 on
11-10, Rs 400 on 12-10.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import expect, rel, sale
from scenarios import Given

REMAINDER_UNPAID = [
    Given(name, dict(impoundments=[case(head_count=2)],
                     sales=[sale(path="s17_refusal", sale_on="2026-10-10", head_sold=1, bid_amount="20000",
                                 owner_appeared_on="2026-10-10", balance_paid="14800")],
                     releases=[rel(basis="s17_remainder", released_on=released_on, fines_paid="", charges_paid=paid)]),
          dict(rule_id="REL-UNPAID", fires=fires, kind="release", subject="R1", on=released_on,
               says=("R1", "10-10-2026", f"of {due} feeding charges", f"short by {short}", "unrecovered")))
    for name, released_on, paid, fires, due, short in (
        ("on-the-sale-day-nothing-due", "2026-10-10", "", False, "", ""),
        ("a-day-after-paid", "2026-10-11", "200", False, "", ""),
        ("a-day-after-a-paisa-short", "2026-10-11", "199.99", True, "Rs 200.00", "Rs 0.01"),
        ("two-days-after-unpaid", "2026-10-12", "", True, "Rs 400.00", "Rs 400.00"))
]


@pytest.mark.parametrize("given", REMAINDER_UNPAID, ids=str)
def test_rel_unpaid_the_remainder_after_the_sale(given, findings):
    expect(findings(given), **given.expected)
