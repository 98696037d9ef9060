"""The balances of a scope on the golden bundle, computed by hand, and their identity."""

import datetime as dt

import pytest
from helpers import built

from pipeline.build import _check_balances
from pipeline.read.balances import period_balances
from pipeline.read.scope import make_scope

AS_OF = dt.date(2026, 12, 31)


@pytest.fixture(scope="module")
def con():
    from pathlib import Path
    return built(Path(__file__).resolve().parent.parent / "golden" / "bundle", as_of=AS_OF)


def _by_ledger(con, scope):
    return {r["ledger"]: r for r in period_balances(con, scope)}


def test_la2_september_october_by_hand(con):
    # LA2 from 2026-09-01 to 2026-10-31. It cuts through the six months the DM holds G05's
    # surplus (sold 2026-08-11, received by the DM 08-14; due to the local fund 2027-02-15) and through G05's fines,
    # credited in two parts, the second (400 on 09-05) after the period starts.
    # Local fund dues before 09-01: G00 800 + G03 1600 + G05 1000 = 3400; credited before:
    #   E11 800 + E03 1600 + E04 600 = 3000 -> opening 400.
    # Due in the period: G13 450 (10-11) + G09 800 (10-20) = 1250.
    # Credited in it: E05 400 (for G05, due 08-11: an earlier due) + E10 450 (G13) + E08 750 (G09)
    #   = 1600, of it 1200 for the period's dues and 400 for earlier ones.
    # Closing: 400 + 1250 - 1600 = 50 (G09 booked 750 of 800).
    # DM's deposit: receipt of 3000 due 08-11, booked 08-14 (before the period): nothing due or
    # credited in it; he held 3000 at the start; his credit of 3000 to LA2 on 10-31 leaves 0 held
    # at the end, though by the Act he should still hold 3000 until 2027-02-15.
    b = _by_ledger(con, make_scope(local_authority="LA2", start=dt.date(2026, 9, 1), end=dt.date(2026, 10, 31)))
    lf = b["local_fund"]
    assert (lf["opening_due_not_credited"], lf["due"], lf["credited"], lf["closing_due_not_credited"]) == \
        (40000, 125000, 160000, 5000)
    assert (lf["credited_for_period_dues"], lf["credited_for_earlier_dues"], lf["credited_other"]) == (120000, 40000, 0)
    dm = b["dm_deposit"]
    assert (dm["opening_due_not_credited"], dm["due"], dm["credited"], dm["closing_due_not_credited"]) == (0, 0, 0, 0)
    assert (dm["held_start"], dm["held_end"], dm["held_due_start"], dm["held_due_end"]) == (300000, 0, 300000, 300000)
    # what the DM holds is blank for a local fund, on the page as in the workbook
    assert (lf["held_start"], lf["held_end"], lf["held_due_start"], lf["held_due_end"]) == (None, None, None, None)
    assert lf["ties"] and dm["ties"]


def test_la1_august_a_late_credit_stays_open_at_the_month_end(con):
    # G06 fines 1800 due 08-20, booked 10-01: due in August, nothing credited, closing 1800.
    lf = _by_ledger(con, make_scope(local_authority="LA1", month="2026-08"))["local_fund"]
    assert (lf["opening_due_not_credited"], lf["due"], lf["credited"], lf["closing_due_not_credited"]) == \
        (0, 180000, 0, 180000)
    # In October its credit is one for an earlier due; the 'misc receipt' of 09-09 (nothing due for
    # it) is credited_other in September.
    oct_ = _by_ledger(con, make_scope(local_authority="LA1", month="2026-10"))["local_fund"]
    assert oct_["credited_for_earlier_dues"] == 180000 and oct_["credited_other"] == 0
    sep = _by_ledger(con, make_scope(local_authority="LA1", month="2026-09"))["local_fund"]
    assert sep["credited_other"] == 25000 and sep["credited_for_earlier_dues"] == 0


def _scopes():
    months = [f"{y}-{m:02d}" for y in (2026, 2027) for m in range(1, 13)][:15]
    for la in (None, "LA1", "LA2"):
        yield make_scope(local_authority=la)
        yield make_scope(local_authority=la, financial_year_="2026-27")
        yield make_scope(local_authority=la, financial_year_="2025-26")
        for m in months:
            yield make_scope(local_authority=la, month=m)
        for start, end in ((dt.date(2026, 8, 12), dt.date(2026, 8, 12)), (dt.date(2026, 2, 11), dt.date(2027, 2, 12)),
                           (dt.date(2026, 10, 31), dt.date(2026, 11, 1))):
            yield make_scope(local_authority=la, start=start, end=end)


def test_the_identity_holds_for_every_scope(con):
    seen = 0
    for scope in _scopes():
        for r in period_balances(con, scope):
            assert r["ties"], (scope, r)
            seen += 1
    assert seen >= 90          # every ledger and authority of every scope


def test_a_month_closes_where_the_next_opens(con):
    months = ["2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]
    closes = [_by_ledger(con, make_scope(local_authority="LA2", month=m))["local_fund"] for m in months]
    for before, after in zip(closes, closes[1:], strict=False):
        assert before["closing_due_not_credited"] == after["opening_due_not_credited"]


def test_the_build_stops_when_a_month_does_not_roll_forward(con):
    _check_balances(con)        # silent on the built accounts
    con.execute("CREATE TEMP TABLE keep AS SELECT * FROM fund_balances")
    try:
        con.execute("UPDATE fund_balances SET balance_check = 1 WHERE month = '2026-09' AND local_authority_id = 'LA2'")
        with pytest.raises(RuntimeError, match="do not roll forward"):
            _check_balances(con)
        con.execute("DELETE FROM fund_balances; INSERT INTO fund_balances SELECT * FROM keep")
        con.execute("UPDATE fund_balances SET closing_due_not_credited = closing_due_not_credited + 1 "
                    "WHERE month = '2027-02' AND local_authority_id = 'LA2'")
        with pytest.raises(RuntimeError, match="end where the reconciliation does"):
            _check_balances(con)
    finally:
        con.execute("DELETE FROM fund_balances; INSERT INTO fund_balances SELECT * FROM keep; DROP TABLE keep")
    _check_balances(con)
