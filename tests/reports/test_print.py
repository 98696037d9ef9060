"""The reports printed: A4, every table wrapping inside the page (no scrollbar printed in place of
the findings' "event on" and "detail"), no chart toolbar, the DM's signature block on the monthly
review; and `pound report --pdf` (through pipeline.documents.pdf) writing the PDFs."""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

A4_INNER_PX = 718        # 210 mm less the print margins (10 mm each side) at 96 px to the inch

JS_PRINTED = """() => {
  const body = document.body.getBoundingClientRect();
  const wide = [...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > body.right + 1)
      .map(t => t.id || t.className);
  const scrolled = [...document.querySelectorAll('div.pound-scroll')].filter(d => d.scrollWidth > d.clientWidth + 1).length;
  const toolbars = [...document.querySelectorAll('.modebar-container')].filter(m => getComputedStyle(m).display !== 'none').length;
  const sign = document.querySelector('div.pound-signature');
  return {wide, scrolled, toolbars, signature: sign ? getComputedStyle(sign).display : null,
          width: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("name", ["monthly_review", "reconciliation", "trends"])
def test_a_report_printed_keeps_within_a4(browser, october, name):
    page, _, errors = browser.open(october[name], context_args={"viewport": {"width": A4_INNER_PX, "height": 1000}})
    page.emulate_media(media="print")
    got = page.evaluate(JS_PRINTED)
    assert errors == []
    assert got["wide"] == [] and got["scrolled"] == 0 and got["width"] <= A4_INNER_PX, got
    assert got["toolbars"] == 0
    if name == "monthly_review":
        assert got["signature"] == "flex"
        # the findings' columns the screen scrolls to are on the printed page
        headers = page.evaluate("[...document.querySelectorAll('#findings thead th')].map(t => t.textContent.trim())")
        assert "event on" in headers and "detail" in headers
    page.context.close()


def test_report_pdf_is_a4_with_the_findings_columns_and_signature(october, tmp_path):
    from pypdf import PdfReader

    from pipeline.documents.pdf import DEBIAN_CHROMIUM, print_reports

    if not DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed")
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (make browser installs poppler-utils)")
    page = shutil.copy(october["monthly_review"], tmp_path / october["monthly_review"].name)
    [pdf] = print_reports([page])
    assert pdf == page.with_suffix(".pdf")
    reader = PdfReader(str(pdf))
    assert len(reader.pages) >= 3
    assert all(round(float(p.mediabox.width)) == 595 and round(float(p.mediabox.height)) == 842 for p in reader.pages)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "event on" in text and "detail" in text
    assert "District Magistrate: signature" in text
    # a figure from the sales table, whole (not broken across lines)
    assert "22,000.00" in text
