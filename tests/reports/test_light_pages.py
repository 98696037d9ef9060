"""Pages that travel: at 1280 px no table needs sideways scrolling; each page is under 1.5 MB,
sharing one plotly.js beside it, and still draws its charts offline; with --self-contained a
page holds its own plotly.js and draws alone. Checked on the sample's October and on a month of
a synthetic district."""

from __future__ import annotations

import shutil

import pytest

from pipeline.reports import render

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
LIGHT = 1_500_000       # bytes a page may weigh, so that a month's pages go by e-mail

JS_SCROLL = """() => ({page: document.documentElement.scrollWidth, inner: innerWidth,
  scrolled: [...document.querySelectorAll('div.pound-scroll, .jp-OutputArea-output')]
      .filter(d => d.scrollWidth > d.clientWidth + 1).map(d => (d.querySelector('table') || {}).id || d.className)})"""


def test_the_widest_tables_show_every_column_a_click_away(tabs, synthetic):
    # a tab of its own (it clicks), of the session's (reports/conftest.py)
    page, _, _ = tabs.open(synthetic["reconciliation"], charts=False, viewport=LAPTOP["viewport"])
    shown = "[...document.querySelectorAll('#breaks thead th')].filter(t => getComputedStyle(t).display !== 'none').length"
    essential = page.evaluate(shown)
    page.click("label[for='breaks-all']")
    assert page.evaluate(shown) == essential + 7        # ledger, entry on, days after due, entries, the DM's own entries, the difference, the early finding (R21) (the finding, R16 and R17, stands beside its row)
    assert page.evaluate(JS_SCROLL)["page"] <= 1280    # the whole table scrolls in its box, not the page
    page.close()


@pytest.mark.xdist_group("on_screen")       # with test_browser and test_pages_a11y, that read October's pages too
@pytest.mark.parametrize("name", [n for n, _ in render.REPORTS])
def test_each_page_is_light_draws_its_charts_offline_with_the_shared_plotly_and_no_table_scrolls_at_1280_px(
        on_screen, october, synthetic, name):
    """Each page as on_screen opened it at 1280 px (reports/conftest.py: once a process), its charts
    drawn, for the facts of both: light and drawn offline, and nothing scrolling sideways (with its
    charts on the page, as a reader sees it)."""
    for pages in (october, synthetic):
        assert pages[name].stat().st_size < LIGHT, f"{pages[name].name} weighs over 1.5 MB"
        assert (pages[name].parent / render.PLOTLY_FILE).exists(), f"no shared plotly.js beside {pages[name].name}"
        page, requests, errors = on_screen(pages[name])
        assert page.viewport_size == LAPTOP["viewport"]
        assert [u for u in requests if not u.startswith(("file:", "data:"))] == [] and errors == [], \
            f"{pages[name].name} reached out or had a script error: {requests} {errors}"
        assert page.evaluate("[...document.querySelectorAll('.plotly-graph-div')].every(d => d.querySelector('.main-svg'))"), \
            f"a chart of {pages[name].name} is not drawn offline"
        got = page.evaluate(JS_SCROLL)
        assert got["page"] <= got["inner"] and got["scrolled"] == [], (f"{pages[name].name} scrolls sideways at 1280 px", got)


def test_a_self_contained_page_draws_alone_and_a_shared_one_needs_its_plotly(tabs, sample_db, october, tmp_path):
    [review] = [p for p in render.render_reports(sample_db, "2026-10", None, tmp_path / "whole", self_contained=True)
                if p.name.startswith("trends")]
    assert not (tmp_path / "whole" / render.PLOTLY_FILE).exists()
    alone = tmp_path / "alone"
    alone.mkdir()
    page, _, errors = tabs.open(shutil.copy(review, alone / review.name))      # tabs: reports/conftest.py
    assert errors == [] and page.locator(".main-svg").count() >= 3
    page.close()
    # its twin, sharing plotly.js, copied away from it: no chart is drawn
    shared = shutil.copy(october["trends"], alone / "shared.html")
    page, _, errors = tabs.open(shared, charts=False)
    assert page.locator(".main-svg").count() == 0 and errors
    page.close()


def test_the_shared_plotly_is_written_once_and_whole(tmp_path):
    import nbformat
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": f"<script>window.x = 1;</script>\n<script>{js}</script>\n"}),
        nbformat.v4.new_output("display_data", data={"text/html": "<div>chart</div>"})])]
    render.share_plotly(nb, tmp_path)
    light = nb.cells[0].outputs[0]["data"]["text/html"]
    assert light == f'<script>window.x = 1;</script>\n<script src="{render.PLOTLY_FILE}" charset="utf-8"></script>\n'
    assert nb.cells[0].outputs[1]["data"]["text/html"] == "<div>chart</div>"
    assert (tmp_path / render.PLOTLY_FILE).read_text(encoding="utf-8") == js
    assert [p.name for p in tmp_path.iterdir()] == [render.PLOTLY_FILE]      # no partial file left
    # a notebook without plotly.js (no chart) is left as it is, and nothing is written
    other = tmp_path / "other"
    other.mkdir()
    plain = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": "<div>no chart</div>"})])])
    render.share_plotly(plain, other)
    assert plain.cells[0].outputs[0]["data"]["text/html"] == "<div>no chart</div>" and not any(other.iterdir())
