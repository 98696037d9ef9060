"""What looking at the printed papers found, kept from coming back (pdftotext of the sample's
papers as of 30-11-2026): a memo's title keeps its width beside a long addressee; an account of
sale says nothing of "0 head of cattle" returned; a re-seizure's account names what the protest
deposit of its first case left unpaid (R11), and a disposal's unmet dues say what they hold; and a
surplus the District Magistrate received in parts is credited on in parts, each on its day (R12)."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import sys
from pathlib import Path

import pytest
from printed import pdf_text
from test_papers_a11y import sample_papers  # noqa: F401  (the fixture: the sample's papers, printed)


@pytest.fixture(scope="module")
def texts(sample_papers):  # noqa: F811
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (make browser installs poppler-utils)")
    return {p.stem: pdf_text(p) for p in sample_papers.glob("*.pdf") if not p.stem.endswith("_all")}


@pytest.mark.browser
def test_a_memo_s_title_is_not_squeezed_by_a_long_addressee(texts):
    memos = {k: v for k, v in texts.items() if k.startswith("findings_memo_")}
    # the police station's memo has the longest addressee ("..., Officer in charge, to whom the
    # report under s.15(1) was made"): its title was printed a word a line
    assert "findings_memo_police-Nanjangud-Rural-Police-Station_2026-10" in memos
    for name, text in memos.items():
        lines = [line.strip() for line in text.splitlines()]
        assert "Findings for explanation" in lines, name
        assert "Office of the District Magistrate, Mysuru" in lines, name


@pytest.mark.browser
def test_an_account_of_sale_returns_no_zero_heads(texts):
    accounts = {k: v for k, v in texts.items() if k.startswith("owner_account_")}
    assert len(accounts) == 8
    assert [k for k, v in accounts.items() if re.search(r"\b0 (head|heads|cattle|calf|sheep)\b", v)] == []
    # S-007 of N-2610-021 sold the one head: the owner receives the balance only
    assert "I have received the balance of Rs 7,300.00" in " ".join(accounts["owner_account_N-2610-021"].split())
    # S-004 of N-2610-013 sold 2 of 4: the 2 returned carry the s.13 security
    assert "I have received the 2 head of cattle remaining and the balance of Rs 8,500.00" in \
        " ".join(accounts["owner_account_N-2610-013"].split())


@pytest.mark.browser
def test_a_reseizure_s_account_says_what_the_protest_deposit_left_unpaid(texts):
    # N-2610-021 is N-2609-020's cattle seized again under s.16(2); that case's deposit under protest
    # covered its fines and feeding, so nothing is carried (R11), and the account says so
    text = " ".join(texts["owner_account_N-2610-021"].split())
    assert "of which left unpaid by the deposit under protest in case N-2609-020 (s.16(2), s.17(1)): fines Rs 0.00" in text
    assert "of which left unpaid by that deposit: feeding and watering Rs 0.00" in text
    assert "left unpaid" not in " ".join(texts["owner_account_N-2610-013"].split())


@pytest.mark.browser
def test_a_disposal_s_unmet_dues_name_the_rejected_auction_s_expenses(texts):
    # M-2610-022: fines 600.00 + feeding 5,750.00 = 6,350.00 payable, and S-008's expenses of 200.00
    # (its bid rejected on 19-10-2026): 6,550.00 unmet, with Rs 0.00 of proceeds to pay any of it
    text = " ".join(texts["owner_account_M-2610-022"].split())
    assert re.search(r"dues the proceeds could not meet: the fines and charges payable, and the expenses "
                     r"of the auction S-008 of 19-10-2026 Rs 6,550\.00", text), text


# each paper's link in the index: the id or month it ends with, and the number of lines it takes
JS_LINKS = """() => [...document.querySelectorAll('#papers a, #memos a')].filter(a => a.textContent !== 'PDF').map(a => {
  const m = a.textContent.match(/(\\d{4}-\\d{2}|[A-Z]+-\\d{3,4}(-\\d{3})?)$/);
  const span = [...a.querySelectorAll('span.nowrap')].find(s => m && s.textContent === m[0]);
  return [a.textContent, m ? m[0] : null, span ? span.getClientRects().length : 0];
})"""


@pytest.mark.browser
def test_the_index_keeps_a_paper_s_id_or_month_whole_on_a_narrow_screen(browser, sample_papers):  # noqa: F811
    page, _, _ = browser.open(sample_papers / "index.html", charts=False,
                              context_args={"viewport": {"width": 400, "height": 900}})
    links = page.evaluate(JS_LINKS)
    page.context.close()
    # the papers, the six receipts for security (s.13), and the memos again by official (one to the DM's
    # accounts section, R21; one to SO01 for September, S-002 held a day early, R25)
    assert len(links) == 47 + 6 + 10
    # "findings_memo_SO02_2026-" / "11" was how a link broke at 400 px
    assert [text for text, end, lines in links if end is None or lines != 1] == []


@pytest.mark.parametrize("receipts, parts", [
    ((("DM1", "2026-10-20", "500"), ("DM2", "2026-11-15", "300")), "Rs 500.00 on 21-04-2027; Rs 300.00 on 16-05-2027"),
    ((("DM1", "2026-10-20", "500"),), "Rs 500.00 on 21-04-2027; Rs 300.00 not yet received by the District Magistrate"),
], ids=["both-received", "one-received"])
def test_the_account_of_sale_names_each_part_of_the_surplus_and_its_day(tmp_path, receipts, parts):
    # the sale of tests/build/test_sale_parts_and_reseizure_sale.py: Rs 800.00 of surplus, received by the DM
    # in parts on 20-10-2026
    # (Rs 500.00: + 6 months + 1 day = 21-04-2027) and 15-11-2026 (Rs 300.00: 16-05-2027)
    from bs4 import BeautifulSoup

    from pipeline.documents.papers import Scope
    from pipeline.documents.render import write_papers

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build"))
    from test_sale_parts_and_reseizure_sale import _parts

    con = _parts("2026-11-30", receipts=receipts)
    try:
        write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
    finally:
        con.close()
    [paper] = tmp_path.glob("owner_account_*.html")
    text = " ".join(BeautifulSoup(paper.read_text(encoding="utf-8"), "html.parser").get_text().split())
    assert f"credited to the local fund in parts, each six months and a day after he receives it: {parts}." in text
