"""The pieces of a page: tables, headline figures, charts; no markup from the registers."""

from __future__ import annotations

import json

import duckdb
import pandas as pd
import pytest

from pipeline.read import reconciliation as rec
from pipeline.read.select import Cond, col, select, total, totals
from pipeline.reports import charts, html, review, trends


@pytest.mark.parametrize("paise, text", [
    (0, "0.00"), (5, "0.05"), (100, "1.00"), (2200000, "22,000.00"), (-10000, "-100.00"), (-150, "-1.50"),
    (-5, "-0.05"), (12000000, "1,20,000.00"), (123456789012, "1,23,45,67,890.12"), (None, ""), (pd.NA, ""),
    (float("nan"), ""), (250000.0, "2,500.00"),
])
def test_rupees_writes_exact_paise_in_indian_groups(paise, text):
    assert html.rupees(paise) == text


def test_rupees_refuses_fractions_of_a_paisa():
    with pytest.raises(TypeError):
        html.rupees(100.5)


def test_dates_are_written_day_first():
    import datetime as dt
    assert html.cell_text(dt.date(2026, 10, 5)) == ("05-10-2026", "date")
    assert html.cell_text(pd.Timestamp("2026-10-05")) == ("05-10-2026", "date")


def test_table_writes_money_and_escapes_text():
    df = pd.DataFrame({"case_id": ["<script>alert(1)</script>", "B"],
                       "amount": pd.array([2200000, -10000], dtype="Int64"), "heads": [3, 4]})
    page = html.table(df, money=["amount"], table_id="t")
    assert 'id="t"' in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page
    assert '<td class="num money" data-col="amount">22,000.00</td>' in page
    assert '<td class="num money" data-col="amount">-100.00</td>' in page
    assert "amount (Rs)" in page
    assert "Nothing here" in html.table(df.iloc[0:0], empty="Nothing here")


def test_a_table_names_its_selection_and_each_row(con):
    roll = review.rollforward(con, "2026-10")
    page = html.table(roll, table_id="r", total="all")
    from bs4 import BeautifulSoup
    soup = BeautifulSoup(page, "html.parser")
    sel = json.loads(soup.select_one("#r")["data-selection"])
    assert sel["model"] == "monthly_accounts" and sel["key"] == ["pound_id"]
    assert {"column": "month", "op": "=", "value": "2026-10"} in sel["where"]
    assert [json.loads(tr["data-key"]) for tr in soup.select("#r tbody tr")] == \
        [{"pound_id": p} for p in roll["pound_id"]]
    assert soup.select_one("#r tfoot tr")["data-key"] == "{}"


def test_a_long_table_shows_its_first_rows_and_says_how_many_more():
    c = duckdb.connect()
    c.execute("CREATE TABLE t AS SELECT 'C' || i AS case_id, 100::BIGINT AS amount FROM range(1200) r(i)")
    df = totals(c, select(c, "t", col("case_id"), col("amount"), order=["amount", "case_id"], key=["case_id"]))
    df = df.sort_values("case_id", key=lambda s: s.str[1:].astype(int), ignore_index=True)
    out = str(html.table(df, money=["amount"], total="all", max_rows=500))
    assert out.count("<tr") == 1 + 500 + 1 and "C499" in out and "C500" not in out
    assert "The first 500 of 1,200 rows are shown (the total is of all of them)" in out
    assert ">1,200.00<" in out                       # the total counts every row: 1,200 x Rs 1.00
    assert "are shown" not in str(html.table(df.head(10), money=["amount"]))


def test_a_selection_cannot_join_or_read_outside_its_model():
    from pipeline.read.select import Selection
    with pytest.raises(ValueError):
        Selection("case_accounts c JOIN impoundments i", (col("case_id"),)).sql()
    with pytest.raises(ValueError):
        Selection("case_accounts", (col("case_id); DROP TABLE x; --"),)).sql()
    sql, params = Selection("fund_movements", (col("section"), total("amount")), (Cond("month", "=", "2026-10"),)).sql()
    assert sql == ("SELECT section AS section, CAST(coalesce(sum(amount), 0) AS BIGINT) AS amount FROM fund_movements "
                   "WHERE month = ? GROUP BY section") and params == ["2026-10"]


def test_charts_have_titles_and_axis_titles(con):
    month = "2026-10"
    months = trends.months_upto(con, month)
    figs = {
        "rollforward": charts.rollforward(review.rollforward(con, month), "October 2026"),
        "money": charts.money_received(review.money_received(con, month), "October 2026", review.ACCOUNT_LABELS),
        "findings": charts.findings_by_rule(review.findings_by_rule(con, month), "October 2026"),
        "by_authority": charts.reconciliation_by_authority(rec.by_authority(con)),
        "status": charts.reconciliation_status(rec.status_by_authority(con)),
        "ageing": charts.ageing(rec.ageing(con)),
        "impoundments": charts.impoundments(trends.impoundments_by(con, month, None, "pound_id", 12), months),
        "by_taluk": charts.impoundments(trends.impoundments_by(con, month, None, "taluk", 12), months, by="taluk"),
        "by_class": charts.impoundments_by_class(trends.impoundments_by_class(con, month), months),
        "shares": charts.outcome_shares(trends.outcomes_by_month(con, month), months),
        "ttr": charts.time_to_release(trends.time_to_close(con, month)),
        "owners": charts.repeat_owners(trends.repeat_owners(con, month)),
        "fines": charts.fines(trends.fines_due_vs_collected(con, month), months),
    }
    for name, fig in figs.items():
        assert fig is not None, name
        lay = fig.layout
        assert lay.title.text, name
        assert lay.xaxis.title.text or lay.yaxis.title.text, name
        assert len(fig.data) >= 1, name
    for name in ("money", "by_authority", "status", "ageing", "fines"):
        titles = (figs[name].layout.xaxis.title.text or "") + (figs[name].layout.yaxis.title.text or "")
        assert "Rupees" in titles, name
    for name in ("rollforward", "impoundments", "by_class"):
        assert figs[name].layout.yaxis.title.text == "Heads", name
    assert charts.rollforward(review.rollforward(con, "2031-01"), "x") is None


def test_offline_renderer_adds_no_script_src():
    import plotly.graph_objects as go
    import plotly.io as pio

    charts.setup()
    bundle = pio.renderers[charts.RENDERER].to_mimebundle(go.Figure(go.Bar(x=[1], y=[2])).to_dict())
    page = bundle["text/html"]
    assert "<script src" not in page.replace(" ", "") and "cdn" not in page.lower()


def test_charts_stay_readable_at_state_scale():
    # 30 pounds over two months: the eleven busiest by name, the other nineteen as one series,
    # all added up in the selection (trends.impoundments_by)
    con = duckdb.connect()
    con.execute("CREATE TABLE monthly_accounts AS SELECT m.month, 'P' || lpad(CAST(i AS VARCHAR), 3, '0') AS pound_id, "
                "'T' AS taluk, 'D' AS district, CAST(i * 2 + m.k AS BIGINT) AS heads_impounded "
                "FROM range(30) r(i), (VALUES ('2025-01', 0), ('2025-02', 1)) m(month, k)")
    months = ["2025-01", "2025-02"]
    drawn = trends.impoundments_by(con, "2025-02", None, "pound_id", charts.SERIES_SHOWN)
    fig = charts.impoundments(drawn, months)
    names = [t.name for t in fig.data]
    # the eleven busiest (P019 to P029), in the order of their names, then the others
    assert names == [f"P{i:03d}" for i in range(19, 30)] + ["19 others"]
    assert len(names) == charts.SERIES_SHOWN
    assert list(fig.data[-2].y) == [58, 59] and list(fig.data[-1].y) == [sum(range(0, 38, 2)), sum(range(1, 38, 2))]
    # past POINTS_SHOWN cases the chart is given quartiles by status, and draws a box of them
    summary = pd.DataFrame({"status": ["released"], "cases": [5000], "q1": [1249.75], "median": [2499.5],
                            "q3": [3749.25], "shortest": [0], "longest": [4999]})
    box = charts.time_to_release(summary).data[0]
    assert box.boxpoints is False and box.median == (2499.5,)


def test_select_keeps_money_exact(con):
    got = select(con, "fund_movements", total("amount"), where=[Cond("hop", "=", 1)])
    assert pd.api.types.is_integer_dtype(got["amount"])
    # the sum is the rows' amounts added up in Python, to the paisa
    rows = [amount for (amount,) in con.execute("SELECT amount FROM fund_movements WHERE hop = 1").fetchall()]
    assert len(rows) > 10 and int(got["amount"].iloc[0]) == sum(rows) > 0


def test_a_bar_hovers_with_the_exact_amount_in_indian_groups():
    # 1,20,00,000.05 rupees: plotly's own format would write 12,000,000.05 (and through a float)
    df = pd.DataFrame({"local_authority_id": ["LA1", "LA1"], "ledger": ["local_fund", "dm_deposit"],
                       "head": ["fines", "receipt"], "expected": [1200000005, 0], "credited": [0, 0]})
    bar = charts.reconciliation_by_authority(df).data[0]
    assert bar.hovertemplate == "%{y}<br>expected %{customdata}<extra></extra>"
    assert list(bar.customdata) == ["Rs 1,20,00,000.05", "Rs 0.00"] and list(bar.x) == [12000000.05, 0]
    # each bar names its ledger: the DM's receipts and a local fund's surplus are not told apart by head alone
    assert list(bar.y) == ["LA1 · local fund · fines", "LA1 · DM's deposit · receipts"]


def test_the_status_chart_draws_what_each_row_stands_for():
    # an unexpected entry stands for its ledger amount; every other status for the amount expected
    rows = pd.DataFrame({"ledger": ["local_fund"] * 3, "local_authority_id": ["LA1"] * 3,
                         "head": ["fines", "fines", "other"], "status": ["matched", "missing", "unexpected"],
                         "expected": [60000, 40000, 0], "credited": [60000, 0, 250000], "amount": [60000, 40000, 250000]})
    fig = charts.reconciliation_status(rows)
    drawn = {t.name: list(t.customdata) for t in fig.data}
    assert drawn == {"matched": ["Rs 600.00"], "missing": ["Rs 400.00"], "unexpected": ["Rs 2,500.00"]}
    # a bar adds up amounts of one kind only: an entry nothing was due for is not stacked on the
    # expected credits, and the DM's receipts are not stacked on what he passed on
    bars = {t.name: list(t.y) for t in fig.data}
    assert bars == {"matched": ["LA1 · local fund"], "missing": ["LA1 · local fund"],
                    "unexpected": ["LA1 · local fund · nothing due"]}
    dm = pd.DataFrame({"ledger": ["dm_deposit"] * 2, "local_authority_id": ["LA1"] * 2,
                       "head": ["receipt", "credit_to_local_fund"], "status": ["matched", "matched"],
                       "expected": [1795000, 1380000], "credited": [1795000, 1380000], "amount": [1795000, 1380000]})
    assert list(charts.reconciliation_status(dm).data[0].y) == \
        ["LA1 · DM's deposit · receipts", "LA1 · DM's deposit · credits to local funds"]
    # a status is written in words in the hover too, as in the legend
    mismatch = rows.assign(status=["amount_mismatch", "missing", "unexpected"])
    hover = charts.reconciliation_status(mismatch).data[0]
    assert hover.name == "amount mismatch" and hover.hovertemplate.startswith("%{y}: amount mismatch, ")


def test_a_remembered_escape_tells_markup_from_the_plain_text_equal_to_it():
    from markupsafe import Markup

    from pipeline.reports.html import _esc

    assert _esc("<b>") == "&lt;b&gt;" and _esc(Markup("<b>")) == "<b>" and _esc("<b>") == "&lt;b&gt;"
