"""Every reader's charts and text: months in month order, the sunburst's labels at 4.5:1 or more,
each chart's text alternative and table, Kannada marked and ids kept whole (core/script.py)."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import script
from pipeline.core.script import has_kannada, marked
from pipeline.reports import chart_access, charts


def _shown_order(fig) -> list[str]:
    """The x categories in the order plotly.js draws them: categoryarray, else ascending when
    readable() asked for it, else the order of first appearance."""
    d = chart_access.readable(fig.to_dict())
    axis = d["layout"].get("xaxis", {})
    seen = list(dict.fromkeys(str(x) for t in d["data"] for x in chart_access._array(t.get("x"))))
    if axis.get("categoryarray") is not None:
        return [str(v) for v in chart_access._array(axis["categoryarray"])]
    return sorted(seen) if axis.get("categoryorder") == "category ascending" else seen


def test_months_are_ordered_as_months():
    # November's explore page: the first status had no case in 2026-10, so 2026-10 came last
    df = pd.DataFrame({"month": ["2026-03", "2026-08", "2026-09", "2026-11", "2026-10", "2026-11"],
                       "status": ["released"] * 4 + ["in_pound"] * 2, "cases": [1, 3, 5, 1, 2, 1]})
    fig = px.bar(df, x="month", y="cases", color="status").update_xaxes(type="category")
    assert list(dict.fromkeys(df["month"])) == ["2026-03", "2026-08", "2026-09", "2026-11", "2026-10"]
    assert _shown_order(fig) == ["2026-03", "2026-08", "2026-09", "2026-10", "2026-11"]
    head, rows = chart_access.chart_table(chart_access.readable(fig.to_dict()))
    assert [r[0] for r in rows] == ["2026-03", "2026-08", "2026-09", "2026-10", "2026-11"]
    assert head == ["month", "released", "in_pound"] and rows[3] == ["2026-10", "", "2"]


def test_categories_that_are_not_months_keep_their_order():
    fig = go.Figure(go.Bar(x=["P02", "P01"], y=[1, 2]))
    assert _shown_order(fig) == ["P02", "P01"]


def test_the_sunburst_s_labels_stand_out_from_their_pieces():
    assert round(chart_access._contrast("#0072B2", "#FFFFFF"), 2) == 5.19      # in full: above 4.5:1
    assert round(chart_access._contrast("#E69F00", "#444444"), 2) == 4.32      # plotly's grey on orange
    assert round(chart_access._contrast("#4C9CC9", "#FFFFFF"), 1) == 3.0       # #0072B2 at 0.7 opacity on white
    df = pd.DataFrame({"taluk": list("ABCDEFGH"), "pound_name": [f"P{i}" for i in range(8)],
                       "animal_class": ["cattle"] * 8, "heads": range(1, 9)})
    fig = chart_access.readable(px.sunburst(df, path=["taluk", "pound_name", "animal_class"], values="heads").to_dict())
    trace = fig["data"][0]
    assert trace["leaf"]["opacity"] == 1
    fills, inks = trace["marker"]["colors"], trace["insidetextfont"]["color"]
    assert len(fills) == len(inks) == len(chart_access._array(trace["ids"]))
    assert min(chart_access._contrast(f, i) for f, i in zip(fills, inks, strict=True)) >= 4.5
    assert len(set(fills)) == 8       # each taluk its own colour, its pounds and classes with it


def test_each_chart_says_what_it_shows_and_gives_its_figures():
    df = pd.DataFrame({"pound_id": ["P01", "P02"], "heads_start": [1, 2], "heads_impounded": [3, 4],
                       "heads_released": [0, 1], "heads_sold": [0, 0], "heads_disposed": [0, 0], "heads_end": [4, 5]})
    charts.setup()
    fig = charts.rollforward(df, "October 2026")
    html = charts.OfflineNotebookRenderer(config={}).to_mimebundle(fig.to_dict())["text/html"]
    assert 'role="img" aria-label="Head-count roll-forward by pound, October 2026. Bar chart of heads by pound, ' \
           'in 6 series: at the start, impounded, released, sold, disposed of, at the end."' in html
    assert "the keyboard does not reach it, and the same figures stand in the table below" in html
    assert "<noscript>" in html and "<details" in html
    head, rows = chart_access.chart_table(fig.to_dict())
    assert head[:3] == ["Pound", "at the start", "impounded"] and rows[1][:3] == ["P02", "2", "4"]


def test_money_in_a_chart_s_table_is_written_from_the_paise():
    df = pd.DataFrame({"month": ["2026-09", "2026-10"], "fines_due": [1250050, 880000], "fines_collected": [0, 500000]})
    head, rows = chart_access.chart_table(charts.fines(df, ["2026-09", "2026-10"]).to_dict())
    assert rows[0][1:] == ["Rs 12,500.50", "Rs 0.00"] and rows[1][1:] == ["Rs 8,800.00", "Rs 5,000.00"]


def test_kannada_is_marked_and_ids_and_dates_are_kept_whole():
    assert marked("ಮಹದೇವಪ್ಪ (O1), ಹುಣಸೂರು ಸಂತೆ") == \
        '<span lang="kn">ಮಹದೇವಪ್ಪ</span> (O1), <span lang="kn">ಹುಣಸೂರು ಸಂತೆ</span>'
    assert marked("H-2610-018 on 09-09-2026 (2026-09)") == \
        '<span class="nowrap">H-2610-018</span> on <span class="nowrap">09-09-2026</span> ' \
        '(<span class="nowrap">2026-09</span>)'
    # a word joined by hyphens without a digit may break; the text is escaped
    assert marked("a well-known <b>") == "a well-known &lt;b&gt;"
    assert marked(None) == "" and has_kannada("ಹುಣಸೂರು") and not has_kannada("Hunsur")
    # a file's name in a narrow column breaks after its slashes and underscores, its month whole
    assert marked("registers/impoundments_2026-11_corrections.csv") == \
        'registers/<wbr>impoundments_<wbr><span class="nowrap">2026-11</span>_<wbr>corrections.csv'
    assert marked("owner_name") == "owner_name"


def test_kannada_in_a_page_s_tables_and_a_chart_s_table_is_marked():
    from bs4 import BeautifulSoup

    from pipeline.reports import html as h

    df = pd.DataFrame({"owner_name": ["ಮಹದೇವಪ್ಪ", "Puttaswamy"], "case_id": ["H-2610-018", "N-2610-013"]})
    fig = go.Figure(go.Bar(y=["ಮಹದೇವಪ್ಪ (O1)", "Puttaswamy (O2)"], x=[2, 3], orientation="h"))
    for page in (str(h.table(df, table_id="owners")),
                 charts.OfflineNotebookRenderer(config={}).to_mimebundle(fig.to_dict())["text/html"]):
        soup = BeautifulSoup(page, "html.parser")
        kannada = [n for n in soup.find_all(string=True) if has_kannada(n)]
        assert kannada and all(n.parent.get("lang") == "kn" for n in kannada), kannada
    assert '<span class="nowrap">H-2610-018</span>' in str(h.table(df, table_id="owners"))


def test_a_chart_lying_along_the_page_is_tabled_from_the_top():
    df = pd.DataFrame({"section": ["18(3)", "14(3)"], "account": ["keeper", "state"], "from_account": ["payer", "payer"],
                       "amount": [150000, 100000]})
    head, rows = chart_access.chart_table(charts.money_received(df, "October 2026", {"keeper": "Pound-keeper"}).to_dict())
    # drawn top to bottom: s.14(3) above s.18(3); the label's two lines read as one
    assert [r[0] for r in rows] == ["s.14(3) state", "s.18(3) Pound-keeper"]
    assert rows[0][1] == "Rs 1,000.00"


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Z-_/.<&\"'09") + ["ಹ", "ು", "\n"]), max_size=40))
def test_a_text_with_nothing_to_mark_is_only_escaped_and_the_rest_as_marked_in_full(text):
    # marked() escapes a text with no digit, no Kannada and no long word at once; the full marking,
    # done on any text, gives the same
    assert marked(text) == script._marked.__wrapped__(text)


def test_the_reports_template_is_plotly_white_for_each_kind_of_chart_they_draw_and_no_other():
    # each figure carries its template, copied as it is made: the template holds plotly_white's look
    # for the kinds of trace the reports draw (chart_access.KINDS), not its styling of the twenty others
    import plotly.io as pio

    charts.setup()
    ours, white = pio.templates["pound"].to_plotly_json(), pio.templates["plotly_white"].to_plotly_json()
    assert set(ours["data"]) == {k for k in chart_access.KINDS if k in white["data"]} == {"bar", "scatter"}
    assert all(ours["data"][k] == white["data"][k] for k in ours["data"])
    assert len(white["data"]) > 20
    # the layout is plotly_white's, with the reports' own settings over it
    assert ours["layout"]["colorway"] == chart_access.COLORS and ours["layout"]["separators"] == ".,"
    assert all(ours["layout"][k] == v for k, v in white["layout"].items()
               if k not in ("colorway", "font", "title", "legend", "separators", "xaxis", "yaxis", "margin",
                            *charts.OTHER_AXES))
    assert not set(charts.OTHER_AXES) & set(ours["layout"]) and set(charts.OTHER_AXES) <= set(white["layout"])


def test_every_chart_on_the_pages_is_of_a_kind_the_template_styles(october, synthetic):
    # a chart of another kind (a heatmap, a pie) would be described as a plain "Chart" and drawn
    # without plotly_white's look for it: chart_access.KINDS must name it first
    import re

    names = [*chart_access.KINDS.values(), "Bar and line chart"]
    for pages in (october, synthetic):
        for page in pages.values():
            labels = re.findall(r'<div role="img" aria-label="([^"]*)"', page.read_text(encoding="utf-8"))
            assert labels, page.name
            assert [x for x in labels if not any(f". {n}" in x for n in names)] == [], page.name
