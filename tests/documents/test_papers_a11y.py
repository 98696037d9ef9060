"""The papers for every reader: axe-core (tests/axe.py) on every kind of paper and the index,
printed with no id, day or month broken across two lines, the index's links on a narrow screen
with no paper's id or month broken either, and Kannada register text marked lang="kn"."""

from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest
from axe import describe, violations
from bs4 import BeautifulSoup
from helpers import built_rows, case
from printed import pdf_text, splits

from pipeline.core.script import has_kannada
from pipeline.documents.papers import Scope
from pipeline.documents.render import write_papers

# one of every kind: the s.15 account of sale, the s.17 one, the account of a disposal (M-2610-022)
PAPERS = ["index", "police_report_H-2610-018", "notice_H-2610-018", "owner_account_H-2610-018",
          "owner_account_N-2610-013", "owner_account_M-2610-022", "release_receipt_R-0012",
          "findings_memo_PK02_2026-09", "security_receipt_D-201"]


@pytest.fixture(scope="module")
def judged(browser, sample_papers):
    """{name: (axe's violations, how many <main>)} of each of PAPERS, opened one after another in one
    tab (browser.each_page), once for the module."""
    return {path.stem: (violations(page), page.locator("main").count())
            for path, page in browser.each_page([sample_papers / f"{name}.html" for name in PAPERS])}


@pytest.mark.browser
@pytest.mark.parametrize("name", PAPERS)
def test_axe_finds_nothing_on_a_paper(judged, name):
    found, mains = judged[name]
    assert found == [], describe(found)
    assert mains == 1


@pytest.mark.browser
def test_printed_papers_keep_ids_days_and_months_whole(sample_papers):
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (make browser installs poppler-utils)")
    printed = sorted(sample_papers.glob("*_all.pdf"))
    assert len(printed) == 6          # five kinds, and the receipts for security (s.13)
    for pdf in printed:
        text = pdf_text(pdf)
        assert splits(text) == [], pdf.name
        assert re.search(r"\d{2}-\d{2}-2026", text)


def _unmarked(html: str) -> list[str]:
    """The pieces of Kannada text of a page that stand outside lang="kn"."""
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for node in soup.find_all(string=True):
        if node.parent.name in ("title", "style", "script") or not has_kannada(node):
            continue
        if node.find_parent(attrs={"lang": "kn"}) is None:
            out.append(str(node))
    return out


# each paper's link in the index: the id or month it ends with, and the number of lines it takes
JS_LINKS = """() => [...document.querySelectorAll('#papers a, #memos a')].filter(a => a.textContent !== 'PDF').map(a => {
  const m = a.textContent.match(/(\\d{4}-\\d{2}|[A-Z]+-\\d{3,4}(-\\d{3})?)$/);
  const span = [...a.querySelectorAll('span.nowrap')].find(s => m && s.textContent === m[0]);
  return [a.textContent, m ? m[0] : null, span ? span.getClientRects().length : 0];
})"""


@pytest.mark.browser
def test_the_index_keeps_a_paper_s_id_or_month_whole_on_a_narrow_screen(browser, sample_papers):
    page, _, _ = browser.open(sample_papers / "index.html", charts=False,
                              context_args={"viewport": {"width": 400, "height": 900}})
    links = page.evaluate(JS_LINKS)
    page.context.close()
    # the papers, the six receipts for security (s.13), and the memos again by official (one to the DM's
    # accounts section, R21; one to SO01 for September, S-002 held a day early, R25)
    assert len(links) == 47 + 6 + 10
    # "findings_memo_SO02_2026-" / "11" was how a link broke at 400 px
    assert [text for text, end, lines in links if end is None or lines != 1] == []


def test_kannada_register_text_is_marked_kannada(tmp_path):
    as_of = dt.date(2026, 11, 30)
    con = built_rows(as_of=as_of, impoundments=[
        case("C1", owner_name="ಮಹದೇವಪ್ಪ", owner_village="ಹುಣಸೂರು", description="ಕಂದು ಹಸು",
             place_of_seizure="ಹುಣಸೂರು ಸಂತೆ")])
    try:
        written = write_papers(con, tmp_path, Scope(), as_of=as_of)
    finally:
        con.close()
    assert written
    pages = [w.path for w in written] + [tmp_path / "index.html"]
    seen = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert _unmarked(html) == [], path.name
        seen += html.count('lang="kn"')
    assert seen >= 4
    # the check sees a name left unmarked
    assert _unmarked("<p>Owner: ಮಹದೇವಪ್ಪ</p>") == ["Owner: ಮಹದೇವಪ್ಪ"]
