"""Page 1's figures of what waits are defined once, in marts/page_one: page 1 (reports/glance.py) reads
its row on the accounts' as-of date, and marts/adjustments the row of each close in force on the close's
own as-of date, to set against the figures the close sealed. Proved by altering one row of the model
and seeing the reader of that row, and no other, follow it: a reader counting the figures itself would not.

On the golden bundle (tests/close/test_close.py): November closed as of 31-12-2026, then built again as
of 31-01-2027 with nothing loaded since, so that the close's row and the page's are two rows.
"""

from __future__ import annotations

import duckdb
import pytest
from test_close import fake_reports, fresh

from pipeline.build.models import layer_models, reads
from pipeline.close import seal
from pipeline.core.paths import SQL_DIR
from pipeline.reports import glance

WHAT_WAITS = ["page1_waiting_high", "page1_waiting_medium", "page1_waiting_low", "page1_oldest_days",
              "page1_of_month_high", "page1_of_month_medium", "page1_of_month_low", "page1_overdue_credits",
              "page1_overdue_money"]


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(seal, "render_reports", fake_reports)


def _adjustments(con) -> dict[str, tuple[int, int]]:
    """The page1_* rows of marts/adjustments made again from its SQL on what the database holds now."""
    (model,) = [m for m in layer_models("marts") if m.name == "adjustments"]
    con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    return {m: (c, n) for m, c, n in con.execute(
        f"SELECT measure, closed_amount, current_amount FROM ({model.sql}) WHERE measure LIKE 'page1_%'").fetchall()}


def _page(con) -> dict[str, int]:
    return {f.measure: f.value for f in glance.figures(con, "2026-11") if f.measure in WHAT_WAITS}


def test_page_one_and_the_adjustments_read_one_model_each_its_own_row(shared, tmp_path, run_cli, fake):
    bundle, db = fresh(shared, tmp_path)
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "built", "--as-of", "2027-01-31")
    assert code == 0, err
    # what each reads: the page's figures of what waits are selections of page_one, on the accounts' date;
    # the adjustments read page_one, and no longer the credits they once counted the overdue from
    (adjustments_sql,) = [m.sql for m in layer_models("marts") if m.name == "adjustments"]
    assert "page_one" in reads(adjustments_sql) and "credit_arrivals" not in reads(adjustments_sql)
    con = duckdb.connect(str(db))
    try:
        shown = [f for f in glance.figures(con, "2026-11") if f.measure in WHAT_WAITS]
        assert len(shown) == len(WHAT_WAITS)
        assert {f.selection["model"] for f in shown} == {"page_one"}
        assert all({"column": "as_of", "op": "=", "value": "2027-01-31"} in f.selection["where"] for f in shown)
        # the premise: nothing loaded since the close, and no figure of page 1 moved
        assert _adjustments(con) == {}
        page = _page(con)
        sealed = dict(con.execute("SELECT measure, value FROM stg_closed_page").fetchall())
        # the close's row altered: the adjustments follow it, the page does not
        con.execute("UPDATE page_one SET waiting_low = waiting_low + 7, overdue_money = overdue_money + 1 "
                    "WHERE as_of = DATE '2026-12-31' AND month = '2026-11' AND district = 'all'")
        moved = {"page1_waiting_low": (sealed["page1_waiting_low"], sealed["page1_waiting_low"] + 7),
                 "page1_overdue_money": (sealed["page1_overdue_money"], sealed["page1_overdue_money"] + 1)}
        assert _adjustments(con) == moved
        assert _page(con) == page
        # the page's row altered: the page follows it, the adjustments do not
        con.execute("UPDATE page_one SET waiting_high = waiting_high + 3, oldest_days = oldest_days + 1 "
                    "WHERE as_of = DATE '2027-01-31' AND month = '2026-11' AND district = 'all'")
        now = _page(con)
        assert now == {**page, "page1_waiting_high": page["page1_waiting_high"] + 3,
                       "page1_oldest_days": page["page1_oldest_days"] + 1}
        assert _adjustments(con) == moved
    finally:
        con.close()
