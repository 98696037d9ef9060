"""What looking at the printed pages found, kept from coming back: a table printed runs on from the
page its heading stands on (it is in no box Chromium keeps whole: JupyterLab's output wrappers
avoided breaks inside them and scrolled, and a table that did not fit the rest of a page then
left it half empty); and the reconciliation's breaks name the finding an overdue credit or
receipt is (R16, R17) beside its row, on screen without a click and on paper, its rule id whole."""

from __future__ import annotations

import re
import shutil

import pytest
from printed import pdf_text

from pipeline.reports.render import PLOTLY_FILE

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

A4_INNER_PX = 718

# every box around a table that Chromium would not split across pages when printing: one that
# avoids breaks inside it, or a scroll container (overflow other than visible)
JS_KEPT_WHOLE = """() => {
  const out = [];
  for (const t of document.querySelectorAll('table.pound-table')) {
    if (t.closest('details, .pound-glance')) continue;
    for (let e = t.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.breakInside.startsWith('avoid') || s.overflowX !== 'visible' || s.overflowY !== 'visible')
        out.push((t.id || '?') + ' in ' + e.className.toString().split(' ')[0] + ' ' + s.breakInside + ' ' + s.overflowY);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("name", ["monthly_review", "reconciliation", "trends", "explore"])
def test_a_printed_table_is_in_no_box_kept_whole(browser, october, name):
    page, _, _ = browser.open(october[name], charts=False,
                              context_args={"viewport": {"width": A4_INNER_PX, "height": 1000}})
    page.emulate_media(media="print")
    assert page.evaluate(JS_KEPT_WHOLE) == []
    page.context.close()


def test_the_check_sees_a_table_kept_whole(browser, tmp_path):
    page_file = tmp_path / "kept.html"
    page_file.write_text('<div style="overflow-y:auto"><table class="pound-table" id="t"><tr><td>1</td></tr></table></div>'
                         '<div style="break-inside:avoid-page"><table class="pound-table" id="u"><tr><td>2</td></tr>'
                         '</table></div>', encoding="utf-8")
    page, _, _ = browser.open(page_file, charts=False)
    page.emulate_media(media="print")
    assert [k.split(" in ")[0] for k in page.evaluate(JS_KEPT_WHOLE)] == ["t", "u"]
    page.context.close()


VISIBLE_HEADERS = "[...document.querySelectorAll('#breaks thead th')].filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent.trim())"


def test_the_breaks_name_their_finding_on_screen_and_on_paper(browser, october, shared):
    page, _, _ = browser.open(october["reconciliation"], charts=False)
    assert "finding" in page.evaluate(VISIBLE_HEADERS)
    page.emulate_media(media="print")
    assert "finding" in page.evaluate(VISIBLE_HEADERS)
    page.context.close()

    from pipeline.documents.pdf import DEBIAN_CHROMIUM, print_reports

    if not (DEBIAN_CHROMIUM.exists() or shutil.which("chromium")) or not shutil.which("pdftotext"):
        pytest.skip("Chromium or pdftotext is not installed")

    def make(folder):
        shutil.copy(october["reconciliation"].parent / PLOTLY_FILE, folder / PLOTLY_FILE)
        print_reports([shutil.copy(october["reconciliation"], folder / october["reconciliation"].name)])

    pdf = next(shared.once("printed-october-reconciliation", make).glob("*.pdf"))
    lines = [" ".join(line.split()) for line in pdf_text(pdf, "-layout").splitlines()]
    # the sample's fines of H-2609-017 (Rs 1,200.00 due to LA03 on 12-09-2026) never credited: an
    # LF-CREDIT-OVERDUE finding since 12-10-2026 (30 days' grace), on the row of its break
    assert any(re.search(r"LA03 H-2609-017 fines missing LF-CREDIT-OVERDUE 1,200\.00", line) for line in lines), \
        [line for line in lines if "H-2609-017" in line]
