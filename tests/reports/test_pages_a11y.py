"""The four report pages for every reader: axe-core (tests/axe.py) finds no violation of WCAG 2.1
A and AA nor of its best practices; no empty tab stop; every chart an image with a text
alternative, a caption and its figures as a table; and without JavaScript the explore page still
holds its words and figures."""

from __future__ import annotations

import pytest
from axe import describe, violations

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

PAGES = ["monthly_review", "reconciliation", "trends", "explore"]
# October's pages read as on_screen opened them, once in a process for the session, with test_browser
# and test_light_pages (reports/conftest.py); axe adds its script to the page and changes nothing else
ON_SCREEN = pytest.mark.xdist_group("on_screen")


@ON_SCREEN
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_nothing_on_a_page(on_screen, october, name):
    page, _, errors = on_screen(october[name])
    assert errors == []
    found = violations(page)
    assert found == [], describe(found)
    assert page.locator("[tabindex]").count() == 0          # nbconvert's empty stops on every cell
    charts = page.locator("figure.pound-chart")
    assert charts.count() == page.locator(".plotly-graph-div").count() >= 3
    for i in range(charts.count()):
        chart = charts.nth(i)
        label = chart.locator('[role="img"]').get_attribute("aria-label")
        assert label and len(label) > 40, label
        assert "keyboard does not reach it" in chart.locator("figcaption").inner_text()
        assert chart.locator("details table tbody tr").count() >= 1


def test_axe_sees_a_violation(tabs, tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><main><h1>x</h1>'
                   '<table><tr><th></th><th>a</th></tr><tr><td>1</td><td>2</td></tr></table></main></body></html>')
    page, _, _ = tabs.open(bad, charts=False)          # a tab of the session's, as on_screen's pages
    assert [v["id"] for v in violations(page)] == ["empty-table-header"]
    page.close()


def test_without_javascript_the_explore_page_has_its_figures(browser, october):
    page, _, _ = browser.open(october["explore"], charts=False, context_args={"java_script_enabled": False})
    text = page.inner_text("body")
    assert "This chart is drawn by JavaScript, which is off" in text
    assert page.locator("figure.pound-chart details table tbody tr").count() > 10
    tables = page.locator("figure.pound-chart details table")
    assert all(tables.nth(i).is_visible() for i in range(tables.count()))       # open, where the drawing is not
    assert all(not d.is_visible() for d in page.locator("figure.pound-chart > div[role=img]").all())
    assert page.locator(".main-svg").count() == 0
    page.context.close()


@ON_SCREEN
def test_the_explore_page_s_months_come_in_order(on_screen, october):
    page, _, _ = on_screen(october["explore"])
    # the x ticks of every chart whose categories are months, as drawn
    ticks = page.evaluate("""() => [...document.querySelectorAll('.plotly-graph-div')].map(d =>
        [...d.querySelectorAll('.xtick text')].map(t => t.textContent).filter(t => /^\\d{4}-\\d{2}$/.test(t)))
        .filter(t => t.length > 1)""")
    assert ticks and all(t == sorted(t) for t in ticks), ticks


@pytest.fixture(scope="module")
def kannada_pages(tmp_path_factory) -> dict:
    """The four pages of October for a bundle whose pound, taluk, owners and places are written in
    Kannada (two cases of one owner: a repeat owner, in a table and a chart)."""
    import datetime as dt

    from helpers import REFERENCE, load, make_bundle
    from helpers import case as a_case

    from pipeline.build import build
    from pipeline.core.params import Parameters
    from pipeline.reports.render import REPORTS, render_reports

    root = tmp_path_factory.mktemp("kannada")
    pounds = [dict(r) for r in REFERENCE["pounds"]]
    pounds[0].update(name="ಹುಣಸೂರು ದೊಡ್ಡಿ", taluk="ಹುಣಸೂರು")
    owner = {"owner_id": "O7", "owner_name": "ಮಹದೇವಪ್ಪ", "owner_village": "ಬಿಳಿಕೆರೆ", "place_of_seizure": "ಹುಣಸೂರು ಸಂತೆ"}
    bundle = make_bundle(root / "bundle", pounds=pounds,
                         impoundments=[{**a_case("C1", "P1", "2026-10-03", head_count=2), **owner},
                                       {**a_case("C2", "P1", "2026-10-12"), **owner}])
    c, result = load(bundle, root / "pound.duckdb")
    assert not result.rejected
    build(c, Parameters({}, as_of=dt.date(2026, 11, 30)))
    c.close()
    paths = render_reports(root / "pound.duckdb", "2026-10", None, root / "pages")
    return {name: p for (name, _), p in zip(REPORTS, paths, strict=True)}


def test_kannada_on_the_pages_is_marked_kannada(kannada_pages):
    from bs4 import BeautifulSoup

    from pipeline.core.script import has_kannada

    seen = 0
    for name, path in kannada_pages.items():
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        kannada = [n for n in soup.find_all(string=True)
                   if n.parent.name not in ("title", "style", "script") and has_kannada(n)]
        unmarked = [str(n) for n in kannada if n.find_parent(attrs={"lang": "kn"}) is None]
        assert unmarked == [], (name, unmarked[:5])
        seen += len(kannada)
    assert seen >= 4
