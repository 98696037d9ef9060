"""The four report pages for every reader: axe-core (tests/axe.py) finds no violation of WCAG 2.1
A and AA nor of its best practices; no empty tab stop; every chart an image with a text
alternative, a caption and its figures as a table; and without JavaScript the explore page still
holds its words and figures."""

from __future__ import annotations

import pytest
from axe import describe, violations

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

PAGES = ["monthly_review", "reconciliation", "trends", "explore"]


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_nothing_on_a_page(browser, october, name):
    page, _, errors = browser.open(october[name])
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
    page.context.close()


def test_axe_sees_a_violation(browser, tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><main><h1>x</h1>'
                   '<table><tr><th></th><th>a</th></tr><tr><td>1</td><td>2</td></tr></table></main></body></html>')
    page, _, _ = browser.open(bad, charts=False)
    assert [v["id"] for v in violations(page)] == ["empty-table-header"]
    page.context.close()


def test_without_javascript_the_explore_page_has_its_figures(browser, october):
    page, _, _ = browser.open(october["explore"], charts=False, context_args={"java_script_enabled": False})
    text = page.inner_text("body")
    assert "This chart is drawn by JavaScript, which is off" in text
    assert page.locator("figure.pound-chart details table tbody tr").count() > 10
    assert page.locator(".main-svg").count() == 0
    page.context.close()


def test_the_explore_page_s_months_come_in_order(browser, october):
    page, _, _ = browser.open(october["explore"])
    # the x ticks of every chart whose categories are months, as drawn
    ticks = page.evaluate("""() => [...document.querySelectorAll('.plotly-graph-div')].map(d =>
        [...d.querySelectorAll('.xtick text')].map(t => t.textContent).filter(t => /^\\d{4}-\\d{2}$/.test(t)))
        .filter(t => t.length > 1)""")
    assert ticks and all(t == sorted(t) for t in ticks), ticks
    page.context.close()
