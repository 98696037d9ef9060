"""The reports printed, as a District Magistrate and an auditor print them (`pound report --pdf`,
through pipeline.documents.pdf): A4 portrait, every table inside the page, no chart toolbar; read
back with pdftotext, every case id, sale id, rule id and amount whole and no word broken into a
shred of one or two letters; and the monthly review's first page the month at a glance, to sign,
holding the figures of its models (pipeline.reports.glance). Checked on the sample's October and
on a month of a synthetic district. A table printed runs on from the page its heading stands on (it is
in no box Chromium keeps whole: JupyterLab's output wrappers avoided breaks inside them and scrolled,
and a table that did not fit the rest of a page then left it half empty); the reconciliation's breaks
name the finding an overdue credit or receipt is (R16, R17) beside its row, on screen without a click
and on paper, its rule id whole."""

from __future__ import annotations

import re
import shutil

import pytest
from helpers import SYNTH_MONTH
from printed import pdf_text, splits

from pipeline.read.database import connect
from pipeline.reports import glance
from pipeline.reports.render import PLOTLY_FILE

pytestmark = [pytest.mark.browser, pytest.mark.notebook]

A4_INNER_PX = 718        # 210 mm less the print margins (10 mm each side) at 96 px to the inch
A4_POINTS = (595, 842)

JS_PRINTED = """() => {
  const body = document.body.getBoundingClientRect();
  const wide = [...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > body.right + 1)
      .map(t => t.id || t.className);
  const scrolled = [...document.querySelectorAll('div.pound-scroll, .jp-OutputArea-output')]
      .filter(d => d.scrollWidth > d.clientWidth + 1).length;
  const toolbars = [...document.querySelectorAll('.modebar-container')].filter(m => getComputedStyle(m).display !== 'none').length;
  const sign = document.querySelector('div.pound-signature');
  return {wide, scrolled, toolbars, signature: sign ? getComputedStyle(sign).display : null,
          width: document.documentElement.scrollWidth};
}"""

# words of one or two letters a line may hold alone (a table's "no", a chart's axis "P1"); any other
# is a shred of a word broken across lines
WORDS = {"a", "an", "as", "at", "by", "id", "in", "is", "it", "no", "of", "on", "or", "to", "up"}


def shreds(text: str) -> list[str]:
    """The lines of a PDF's text that hold nothing but one or two letters, not a word of their own."""
    return [line.strip() for line in text.splitlines()
            if re.fullmatch(r"[A-Za-z]{1,2}", line.strip()) and line.strip().lower() not in WORDS]


def printed_whole(page) -> set[str]:
    """The ids and amounts a printed page shows: every id, reference and rule cell and every amount
    of its tables, but for the columns only the screen shows (pound-extra)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    out = set()
    for td in soup.select("table.pound-table td"):
        classes = td.get("class") or []
        col = td.get("data-col") or ""
        text = " ".join(td.get_text().split())
        if "pound-extra" in classes or not text:
            continue
        if "money" in classes or col.endswith("_id") or col in ("reference", "last_sale_id"):
            out.add(text)
    return out


def _print(sets: dict[str, dict], folder) -> None:
    """Each set of pages copied, with its plotly.js, to a folder of its own in `folder`, and all of
    them printed to PDF in one browser (print_reports), as `pound report --pdf` prints a month's."""
    from pipeline.documents.pdf import print_reports

    copies = []
    for where, pages in sets.items():
        (folder / where).mkdir()
        shutil.copy(next(iter(pages.values())).parent / PLOTLY_FILE, folder / where / PLOTLY_FILE)
        copies += [shutil.copy(p, folder / where / p.name) for p in pages.values()]
    assert [p.name for p in print_reports(copies)] == [p.with_suffix(".pdf").name for p in copies]


def _needs_tools():
    from pipeline.documents.pdf import DEBIAN_CHROMIUM

    if not DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed")
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (make browser installs poppler-utils)")


@pytest.fixture(scope="module")
def pdfs(shared, october, synthetic):
    """The sample's October and the synthetic district's month printed to PDF, once a session, in one
    browser."""
    _needs_tools()
    sets = {"sample": october, "synthetic": synthetic}
    folder = shared.once("printed-october-and-synthetic", lambda folder: _print(sets, folder))
    return {(where, name): folder / where / pages[name].with_suffix(".pdf").name
            for where, pages in sets.items() for name in pages}


@pytest.mark.parametrize("name", ["monthly_review", "reconciliation", "trends", "explore"])
def test_a_report_printed_keeps_within_a4_and_no_table_is_in_a_box_kept_whole(tabs, october, synthetic, name):
    """Each page opened once at A4's width, as printed (a tab of the session's, reports/conftest.py):
    it keeps within A4; and (the sample's October) no table of it is in a box Chromium would not split
    across pages (JS_KEPT_WHOLE)."""
    for pages in (october, synthetic):
        page, _, errors = tabs.open(pages[name], viewport={"width": A4_INNER_PX, "height": 1000})
        page.emulate_media(media="print")
        got = page.evaluate(JS_PRINTED)
        assert errors == []
        assert got["wide"] == [] and got["scrolled"] == 0 and got["width"] <= A4_INNER_PX, got
        assert got["toolbars"] == 0
        if name == "monthly_review":
            assert got["signature"] == "flex"
            # the findings' columns a reader needs are on the printed page
            headers = page.evaluate("[...document.querySelectorAll('#findings thead th')]"
                                    ".filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent.trim())")
            assert {"event on", "detail", "decision", "note on the decision"} <= set(headers)
        if pages is october:
            assert page.evaluate(JS_KEPT_WHOLE) == [], f"a printed table of {pages[name].name} is in a box kept whole"
        if pages is october and name == "reconciliation":
            # the breaks name their finding on paper (on screen and in the PDF: test_the_breaks_name_...)
            assert "finding" in page.evaluate(VISIBLE_HEADERS), "the printed breaks have no finding column"
        page.close()


@pytest.mark.parametrize("where", ["sample", "synthetic"])
@pytest.mark.parametrize("name", ["monthly_review", "reconciliation", "trends", "explore"])
def test_the_pdf_is_a4_with_every_id_and_amount_whole_and_no_shreds(pdfs, october, synthetic, where, name):
    from pypdf import PdfReader

    pdf = pdfs[(where, name)]
    reader = PdfReader(str(pdf))
    assert all((round(float(p.mediabox.width)), round(float(p.mediabox.height))) == A4_POINTS for p in reader.pages)
    text = pdf_text(pdf)
    whole = printed_whole((october if where == "sample" else synthetic)[name])
    broken = sorted(w for w in whole if w not in text)
    assert broken == [], broken[:10]
    assert shreds(text) == []
    assert splits(text) == []
    # every sheet is headed by the report, its month and scope, and numbered
    pages = text.split("\f")[:-1]
    assert all("all districts" in p and re.search(r"page \d+ of \d+", p) for p in pages)


def test_the_split_check_sees_a_broken_id_day_or_month():
    # the "2026-/09", "H-2610-/018" and "09-/09-2026", and their whole twins
    assert splits("in 2026-\n09 and H-2610-\n018, on 09-\n09-2026") == ["2026-/09", "H-2610-/018", "09-/09"]
    assert splits("in 2026-09\nand H-2610-018\non 09-09-2026\nwell-\nknown") == []
    # a slanted axis label read back in pieces, "20" / "26" / "-03"; a negative amount under a figure is none
    assert splits("20\n\n20\n26\n-03\n") == ["26/-03"]
    assert splits("0.00\n\n-4,850.00\n2026-03\n") == []


def test_the_shred_check_sees_a_broken_word():
    # the PDF text of a cell whose words broke inside themselves (the "dec isio n")
    assert shreds("decisio\nn\nop\nen\nno\nP01") == ["n", "op", "en"]


@pytest.mark.parametrize("where", ["sample", "synthetic"])
def test_the_review_s_first_page_is_the_month_at_a_glance_to_sign(pdfs, sample_db, shared, where):
    pdf = pdfs[(where, "monthly_review")]
    first = pdf_text(pdf, "-layout", "-f", "1", "-l", "1")
    assert "the month at a glance, to sign" in first
    assert "District Magistrate: signature" in first and "Name" in first and "Date and seal" in first
    assert "Month closed" in first and "Decisions taken" in first
    db = sample_db if where == "sample" else shared.root / "synthetic-district" / "out" / "pound.duckdb"
    con = connect(db)
    try:
        figures = glance.figures(con, "2026-10" if where == "sample" else SYNTH_MONTH)
    finally:
        con.close()
    lines = [" ".join(line.split()) for line in first.splitlines()]
    # each figure's label and its value, from the model, on one line of the page
    missing = [f"{f.label}: {f.text}" for f in figures
               if not any(re.search(re.escape(f.label) + r" " + re.escape(f.text) + r"( |$)", line) for line in lines)]
    assert missing == []
    if where == "sample":
        # October's figures by hand: 19 heads impounded (rollforward: P01 4 + 1 + P02 10 + 1, the re-seizure
        # N-2610-021, + P03 3), Rs 63,900.00 received (54,900.00 + S-007's 9,000.00: test_glance.py)
        assert {(f.label, f.text) for f in figures} >= {("heads impounded", "19"), ("money received (Rs)", "63,900.00")}


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


def test_the_check_sees_a_table_kept_whole(tabs, tmp_path):
    page_file = tmp_path / "kept.html"
    page_file.write_text('<div style="overflow-y:auto"><table class="pound-table" id="t"><tr><td>1</td></tr></table></div>'
                         '<div style="break-inside:avoid-page"><table class="pound-table" id="u"><tr><td>2</td></tr>'
                         '</table></div>', encoding="utf-8")
    page, _, _ = tabs.open(page_file, charts=False)     # a tab of the session's, as the A4 checks' pages
    page.emulate_media(media="print")
    assert [k.split(" in ")[0] for k in page.evaluate(JS_KEPT_WHOLE)] == ["t", "u"]
    page.close()


VISIBLE_HEADERS = "[...document.querySelectorAll('#breaks thead th')].filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent.trim())"


@pytest.mark.xdist_group("on_screen")      # October's reconciliation as on_screen opened it, with test_browser's
def test_the_breaks_name_their_finding_on_screen_and_on_paper(on_screen, october, pdfs):
    # on screen, as a reader sees the page (read only); printed, at A4's width: in the test above
    page, _, _ = on_screen(october["reconciliation"])
    assert "finding" in page.evaluate(VISIBLE_HEADERS), "the breaks on screen have no finding column"

    pdf = pdfs[("sample", "reconciliation")]          # October's reconciliation printed (pdfs: once a session)
    lines = [" ".join(line.split()) for line in pdf_text(pdf, "-layout").splitlines()]
    # the sample's fines of H-2609-017 (Rs 1,200.00 due to LA03 on 12-09-2026) never credited: an
    # LF-CREDIT-OVERDUE finding since 12-10-2026 (30 days' grace), on the row of its break
    assert any(re.search(r"LA03 H-2609-017 fines missing LF-CREDIT-OVERDUE 1,200\.00", line) for line in lines), \
        [line for line in lines if "H-2609-017" in line]
