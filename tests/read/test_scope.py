"""Scopes: the periods the command line names, and the conditions each model is cut by."""

import datetime as dt

import pytest

from pipeline.core.errors import PoundError
from pipeline.read.scope import make_scope


def test_a_financial_year_runs_1_april_to_31_march():
    s = make_scope(financial_year_="2026-27")
    assert (s.start, s.end, s.period_label) == (dt.date(2026, 4, 1), dt.date(2027, 3, 31), "financial year 2026-27")
    assert make_scope(financial_year_="1999-00").end == dt.date(2000, 3, 31)


@pytest.mark.parametrize("text", ["2026-28", "2026", "26-27", "2026-2027"])
def test_a_financial_year_not_written_like_2026_27_is_refused(text):
    with pytest.raises(PoundError, match="not a financial year written like 2026-27"):
        make_scope(financial_year_=text)


def test_one_period_only_and_to_not_before_from():
    with pytest.raises(PoundError, match="give one period"):
        make_scope(financial_year_="2026-27", month="2026-10")
    with pytest.raises(PoundError, match="is before --from"):
        make_scope(start=dt.date(2026, 5, 2), end=dt.date(2026, 5, 1))
    assert make_scope(start=dt.date(2026, 5, 1), end=dt.date(2026, 5, 1)).start == dt.date(2026, 5, 1)


def test_each_model_is_cut_on_its_own_basis():
    s = make_scope(district="Dist", local_authority="LA2", start=dt.date(2026, 9, 15), end=dt.date(2026, 10, 3))
    conds = {m: [(c.column, c.op, c.value) for c in s.where(m)] for m in
             ("case_accounts", "fund_movements", "ledger_entries", "findings", "monthly_accounts")}
    assert conds["case_accounts"][2:] == [("impounded_on", ">=", dt.date(2026, 9, 15)),
                                          ("impounded_on", "<=", dt.date(2026, 10, 3))]
    assert conds["fund_movements"][2][0] == "due_on" and conds["ledger_entries"][2][0] == "entry_on"
    assert conds["findings"][2][0] == "event_on"
    # a monthly row is in the period when its month is
    assert conds["monthly_accounts"][2:] == [("month", ">=", "2026-09"), ("month", "<=", "2026-10")]
    assert conds["case_accounts"][:2] == [("district", "=", "Dist"), ("local_authority_id", "=", "LA2")]


def test_a_model_without_a_local_authority_or_a_basis_is_not_cut_silently():
    s = make_scope(local_authority="LA2", month="2026-10")
    with pytest.raises(ValueError, match="no local authority"):
        s.where("corrections")
    with pytest.raises(ValueError, match="no period basis"):
        make_scope(month="2026-10").where("deadlines")
    assert make_scope().where("deadlines") == []


def test_a_period_past_the_accounts_date_is_said_to_be_cut_short():
    as_of = dt.date(2026, 11, 30)
    assert make_scope(financial_year_="2026-27").runs_past(as_of).startswith("the period runs past 30-11-2026")
    assert make_scope(financial_year_="2030-31").runs_past(as_of).startswith("the period begins after 30-11-2026")
    assert make_scope(financial_year_="2025-26").runs_past(as_of) is None
    assert make_scope().runs_past(as_of) is None             # the whole history
    assert make_scope(financial_year_="2026-27").runs_past(None) is None
