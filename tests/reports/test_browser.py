"""The rendered pages in a real browser (headless Chromium): nothing fetched from the network,
no script error, every chart drawn, and known figures in their cells."""

from __future__ import annotations

import pytest

JS_CELL = """([table, keyCol, key, col]) => {
  for (const tr of document.querySelectorAll(`#${table} tbody tr`)) {
    const k = tr.querySelector(`td[data-col="${keyCol}"]`);
    if (k && k.textContent.trim() === key) {
      const c = tr.querySelector(`td[data-col="${col}"]`);
      return c ? c.textContent.trim() : null;
    }
  }
  return null;
}"""

pytestmark = [pytest.mark.browser, pytest.mark.notebook]
# the tests of October's pages read them as on_screen opened them, once in a process for the session,
# with test_pages_a11y and test_light_pages (reports/conftest.py)
ON_SCREEN = pytest.mark.xdist_group("on_screen")


def _check_page(opened, min_charts: int):
    """A page opened, (page, requests, errors): checked; returns a function cell(table, key_col, key,
    col) -> text, and the page's text."""
    page, requests, errors = opened
    offsite = [u for u in requests if not u.startswith(("file:", "data:"))]
    assert offsite == [], offsite
    assert errors == [], errors
    assert page.locator(".main-svg").count() >= min_charts
    assert page.evaluate("[...document.querySelectorAll('.plotly-graph-div')].every(d => d.querySelector('.main-svg'))")

    def cell(table, key_col, key, col):
        return page.evaluate(JS_CELL, [table, key_col, key, col])

    return cell, page.inner_text("body")


def test_the_browser_check_sees_a_cdn_request(browser, tmp_path):
    page = tmp_path / "cdn.html"
    page.write_text('<html><head><script src="https://cdn.example.org/require.js"></script></head><body>x</body></html>')
    _, requests, _ = browser.open(page, charts=False)
    assert "https://cdn.example.org/require.js" in requests


@ON_SCREEN
def test_monthly_review_in_a_browser(on_screen, october):
    cell, text = _check_page(on_screen(october["monthly_review"]), min_charts=3)
    assert "Monthly accounts review" in text and "October 2026, all districts" in text
    assert cell("rollforward", "pound_id", "P02", "heads_impounded") == "11"     # with the re-seizure N-2610-021
    assert cell("rollforward", "pound_id", "P02", "rollforward_ties") == "yes"
    assert cell("sales", "case_id", "N-2610-013", "sale_proceeds") == "22,000.00"
    assert cell("sales", "case_id", "N-2610-013", "s17_sale").startswith("s.17")
    # R7: S-006 was sold with no proclamation (high); its buyer matches an official by name only (R8: medium)
    assert cell("findings", "subject_id", "S-006", "rule_id") == "S15-SALE-UNPROCLAIMED"
    assert cell("findings", "subject_id", "S-006", "severity") == "high"
    assert cell("deadlines", "case_id", "M-2610-008", "deadline") == "auction allowed from"
    assert cell("deadlines", "case_id", "M-2610-008", "due_on") == "06-11-2026"
    assert "deadlines in the 7 days after the month" in text
    # high severity first: the first finding row is the high one
    assert text.index("S15-SALE-UNPROCLAIMED") < text.index("S15-NOTICE-MISSING")


@ON_SCREEN
def test_reconciliation_in_a_browser(on_screen, october):
    cell, text = _check_page(on_screen(october["reconciliation"]), min_charts=3)
    assert "Local fund reconciliation" in text and "Totals that tie" in text
    assert cell("breaks", "reference", "N-2609-012", "status") == "amount_mismatch"
    assert cell("breaks", "reference", "N-2609-012", "difference") == "-100.00"
    assert cell("breaks", "reference", "H-2609-017", "status") == "missing"
    assert cell("ageing", "ageing", "61-90 days", "amount") == "1,200.00"
    assert cell("dm-deposit-held", "local_authority_id", "LA01", "held_booked") == "4,150.00"
    # with the fines of N-2609-020 (700), N-2611-023 (1,400) and N-2611-024 (700), each booked in time
    assert "Expected: 49,350.00 = matched 17,200.00" in text


@ON_SCREEN
def test_trends_in_a_browser(on_screen, october):
    cell, text = _check_page(on_screen(october["trends"]), min_charts=7)
    assert "Impoundment trends" in text and "2026-03 to 2026-10" in text
    assert cell("by-class", "month", "2026-10", "heads") is not None
    assert cell("fines", "month", "2026-10", "fines_due") == "8,800.00"       # with M-2610-022's 600
    assert cell("fines", "month", "2026-10", "fines_collected") == "5,000.00"
    assert cell("repeat-owners", "owner_id", "O101", "cases") == "2"


def test_a_tab_sees_a_cdn_request_too(tabs, tmp_path):
    # the pages below are opened in tabs of the session's (reports/conftest.py), not by browser.open
    page_file = tmp_path / "cdn.html"
    page_file.write_text('<html><head><script src="https://cdn.example.org/require.js"></script></head><body>x</body></html>')
    page, requests, _ = tabs.open(page_file, charts=False)
    assert "https://cdn.example.org/require.js" in requests
    page.close()
    # a request the page makes through a window it opens, as browser.open's route records it
    page_file.write_text('<html><body><script>window.open("https://cdn.example.org/beacon.js")</script></body></html>')
    page, requests, _ = tabs.open(page_file, charts=False)
    page.wait_for_timeout(500)
    assert "https://cdn.example.org/beacon.js" in requests
    popups = [p for p in page.context.pages if p.opener() == page]
    assert popups
    for popup in popups:
        popup.close()
    page.close()


def test_reconciliation_breaks_show_whatever_the_month(tabs, quiet_month):
    opened = tabs.open(quiet_month["reconciliation"])
    cell, _ = _check_page(opened, min_charts=2)
    assert cell("breaks", "reference", "N-2609-012", "difference") == "-100.00"
    assert cell("breaks", "reference", "N-2609-012", "status") == "amount_mismatch"
    opened[0].close()


def test_quiet_month_pages_open_offline(tabs, quiet_month):
    # the review of a month with nothing in it has no chart to draw; trends still has its charts
    opened = tabs.open(quiet_month["trends"])
    _, text = _check_page(opened, min_charts=3)
    assert "2026-03 to 2026-05, Mysuru district" in text
    opened[0].close()


@ON_SCREEN
def test_explore_in_a_browser(on_screen, october):
    # all eight questions have something to draw in the sample but the deadlines missed (none by October)
    _, text = _check_page(on_screen(october["explore"]), min_charts=7)
    assert "No report to the police, auction or follow-up of a protest ran past its time limit" in text
    assert "Your own question" in text


def test_golden_explore_in_a_browser(tabs, golden_august):
    opened = tabs.open(golden_august["explore"])
    _, text = _check_page(opened, min_charts=5)
    assert "1. Impoundments by month" in text
    opened[0].close()


def test_golden_monthly_review_in_a_browser(tabs, golden_august):
    opened = tabs.open(golden_august["monthly_review"])
    cell, text = _check_page(opened, min_charts=2)
    # August's one finding: G05's auction SA1 a day before the owner's days from the proclamation ran out (R25)
    assert "August 2026, all districts" in text and "S15-SALE-EARLY" in text and "No findings for August 2026." not in text
    # G05: 10 sheep in and sold at PB; G06: 3 cattle in at PA, 2 sold and 1 returned
    assert "21,000.00" in text and "12,000.00" in text and "4,850.00" in text
    assert cell("rollforward", "pound_id", "PB", "heads_impounded") == "10"
    assert cell("rollforward", "pound_id", "PB", "heads_sold") == "10"
    assert cell("rollforward", "pound_id", "PA", "heads_released") == "1"
    assert cell("sales", "case_id", "G06", "sale_proceeds") == "12,000.00"
    assert cell("sales", "case_id", "G05", "sale_proceeds") == "9,000.00"
    opened[0].close()


def test_golden_reconciliation_in_a_browser(tabs, golden_august):
    opened = tabs.open(golden_august["reconciliation"])
    cell, text = _check_page(opened, min_charts=2)
    assert "Totals that tie" in text
    assert cell("breaks", "reference", "G09", "status") == "amount_mismatch"
    assert cell("breaks", "reference", "G09", "difference") == "-50.00"
    assert cell("breaks", "reference", "G10", "status") == "missing"
    assert cell("breaks", "reference", "G06", "status") == "late"
    opened[0].close()


def test_golden_trends_in_a_browser(tabs, golden_august):
    opened = tabs.open(golden_august["trends"])
    _, text = _check_page(opened, min_charts=5)
    assert "2026-02 to 2026-08" in text
    opened[0].close()
