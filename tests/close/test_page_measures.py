"""Page 1's figures are read back by their measure ids, not their words: a label reworded keeps its
figure in the adjustments, and a close sealed before the figures carried ids is read by its labels, in
one place (pipeline/core/page_measures.py). No build: a close.json's `signed` is loaded into an empty
database and stg_closed_page run on it."""

from __future__ import annotations

import duckdb

from pipeline.core.page_measures import LABELS_BEFORE_IDS, by_measure, measure_of
from pipeline.core.paths import SQL_DIR
from pipeline.load.closes import insert_close
from pipeline.load.schema import ensure_schema

PAGE1 = {f"page1_{k}" for k in ("waiting_high", "waiting_medium", "waiting_low", "oldest_days", "of_month_high",
                                "of_month_medium", "of_month_low", "overdue_credits", "overdue_money")}


def _close(signed: list[dict]) -> dict:
    return {"month": "2026-11", "district": None, "closed_by": "DM", "closed_at": "2026-12-02T10:00:00",
            "as_of": "2026-11-30", "signed": signed}


def _closed_page(signed: list[dict]) -> dict[str, int]:
    con = duckdb.connect()
    try:
        ensure_schema(con)
        insert_close(con, 1, SQL_DIR, _close(signed))
        sql = (SQL_DIR / "staging" / "stg_closed_page.sql").read_text(encoding="utf-8")
        return {m: v for _, m, v in con.execute(sql).fetchall()}
    finally:
        con.close()


def test_a_label_reworded_keeps_its_figure_in_the_adjustments():
    signed = [{"measure": m, "label": f"reworded {i}", "value": i, "money": False, "text": str(i)}
              for i, m in enumerate(sorted(PAGE1))]
    signed.append({"measure": "heads_impounded", "label": "cattle taken in", "value": 5, "money": False, "text": "5"})
    assert _closed_page(signed) == {m: i for i, m in enumerate(sorted(PAGE1))}


def test_a_close_sealed_before_the_ids_is_read_by_its_labels():
    signed = [{"label": label, "value": i, "money": False, "text": str(i)}
              for i, label in enumerate(LABELS_BEFORE_IDS)]
    signed += [{"label": "of which under s.18(1)(a) (Rs)", "value": 100, "money": True, "text": "Rs 1.00"},
               {"label": "deadlines in the 14 days after the month", "value": 2, "money": False, "text": "2"},
               {"label": "a figure page 1 never printed", "value": 9, "money": False, "text": "9"}]
    assert measure_of(signed[-3]) == "received_s18(1)(a)"
    assert measure_of(signed[-2]) == "deadlines_after"
    assert measure_of(signed[-1]) is None
    assert set(by_measure(signed)) == set(LABELS_BEFORE_IDS.values()) | {"received_s18(1)(a)", "deadlines_after"}
    assert set(_closed_page(signed)) == PAGE1


def test_a_database_whose_closed_page_held_labels_is_made_again():
    con = duckdb.connect()
    try:
        con.execute("CREATE TABLE closed_page (close_id INTEGER, label VARCHAR, value BIGINT)")
        ensure_schema(con)
        assert [c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() "
                                          "WHERE table_name = 'closed_page' ORDER BY column_index").fetchall()] \
            == ["close_id", "measure", "value"]
    finally:
        con.close()
