"""Monthly accounts: the head-count roll-forward balances for every pound and month,
checked against a count made independently from the registers."""

import datetime as dt
from collections import defaultdict

from helpers import built


def _month_end(month: str) -> dt.date:
    y, m = map(int, month.split("-"))
    return (dt.date(y + (m == 12), m % 12 + 1, 1)) - dt.timedelta(days=1)


def test_roll_forward_balances_on_the_sample(sample_bundle):
    con = built(sample_bundle)
    rows = con.execute("SELECT month, pound_id, heads_start, heads_impounded, heads_released, heads_sold, heads_end "
                       "FROM monthly_accounts ORDER BY pound_id, month").fetchall()
    assert len(rows) == 3 * 9                       # three pounds, March to November 2026
    # heads in each pound at each month end, counted directly from the registers
    events = defaultdict(list)
    for pound, day, n in con.execute("SELECT pound_id, impounded_on, head_count FROM impoundments").fetchall():
        events[pound].append((day, n))
    for pound, day, n in con.execute("SELECT i.pound_id, r.released_on, r.head_count FROM releases r "
                                     "JOIN impoundments i USING (case_id)").fetchall():
        events[pound].append((day, -n))
    for pound, day, n in con.execute("SELECT i.pound_id, s.sale_on, s.head_sold FROM sales s "
                                     "JOIN impoundments i USING (case_id) WHERE s.accepted").fetchall():
        events[pound].append((day, -n))
    previous_end = {}
    for month, pound, start, inn, released, sold, end in rows:
        assert start + inn - released - sold == end, (month, pound)
        assert end == sum(n for day, n in events[pound] if day <= _month_end(month)), (month, pound)
        assert start == previous_end.get(pound, 0), (month, pound)
        previous_end[pound] = end
    # what the sample holds at the end of November: M-2610-008 (2 head, P01), N-2611-015 (1, P02), H-2610-019 (2, P03)
    assert {p: e for m, p, *_, e in rows if m == "2026-11"} == {"P01": 2, "P02": 1, "P03": 2}


def test_money_measures_of_a_month_on_the_sample(sample_bundle):
    con = built(sample_bundle)
    got = con.execute("""SELECT fines_collected, feeding_collected, protest_deposits, sale_proceeds, sale_expenses,
                                surplus_to_dm, local_fund_due, local_fund_ledger, findings
                         FROM monthly_accounts WHERE month = '2026-10' AND pound_id = 'P02'""").fetchone()
    # N-2610-013: s.17 sale 22,000 (fines 2,800, feeding 7,200, expenses 500); N-2610-014: s.15 sale 10,800
    # (fines 900, feeding 2,700, expenses 400, surplus 6,800); ledger LF-012 2,800 and LF-013 900.
    assert got == (370000, 990000, 0, 3280000, 90000, 680000, 370000, 370000, 0)
