"""The papers read as English does: counts and classes ("1 head of cattle", "2 sheep"), the
receipt's signer named with whether owner or agent as the release records, and the papers'
index a table of kind, case, pound, owner and date linking every paper (and, printed, the PDFs).
Read back from the sample's papers printed (pdftotext, as of 30-11-2026): a memo's title keeps its
width beside a long addressee; an account of sale says nothing of "0 head of cattle" returned; a
re-seizure's account names what the protest deposit of its first case left unpaid (R11), and a
disposal's unmet dues say what they hold; and a surplus the District Magistrate received in parts is
credited on in parts, each on its day (R12)."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import sys
from html import unescape
from pathlib import Path

import pytest
from helpers import built_rows, case
from printed import pdf_text

from pipeline.documents.papers import Scope
from pipeline.documents.render import animals, counted, signer, write_papers

pytestmark = pytest.mark.xdist_group("papers_read")     # one test process: the papers read back once, not once in each test process


@pytest.mark.parametrize(("n", "cls", "words"), [
    (1, "cattle", "1 head of cattle"), (3, "cattle", "3 head of cattle"), (1, "sheep", "1 sheep"),
    (2, "sheep", "2 sheep"), (1, "goat", "1 goat"), (2, "goat", "2 goats"), (1, "buffalo", "1 buffalo"),
    (4, "buffalo", "4 buffaloes"), (1, "calf", "1 calf"), (2, "calf", "2 calves"), (2, "ass", "2 asses"),
])
def test_counts_read_as_english(n, cls, words):
    assert counted(n, cls) == words
    assert animals(n, cls) == words.split(" ", 1)[1]


@pytest.mark.parametrize(("released_to", "owner", "line"), [
    ("Puttaswamy (owner)", "Puttaswamy", "Puttaswamy, the owner of the cattle"),
    ("Ravi (agent of Puttaswamy)", "Puttaswamy", "Ravi, agent of Puttaswamy"),
    ("Ravi (agent)", "Puttaswamy", "Ravi, agent of the owner"),
    ("Puttaswamy", "Puttaswamy", "Puttaswamy, the owner of the cattle"),
    # a name alone that is not the owner's: the register does not say which, and the paper does not guess
    ("Ravi", "Puttaswamy", "Ravi, owner of the cattle or his agent"),
    ("", "Puttaswamy", ""), (None, None, ""),
])
def test_the_signer_is_named_as_the_release_records(released_to, owner, line):
    assert signer(released_to, owner) == line


def _text(path) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))).split())


def _write(tmp_path, **tables):
    con = built_rows(as_of=dt.date(2026, 11, 30), **tables)
    try:
        return write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
    finally:
        con.close()


RELEASE = {"basis": "s12_payment", "fines_paid": "600", "charges_paid": "1600", "receipt_signed": "yes",
           "released_on": "2026-10-03"}


@pytest.fixture(scope="module")
def one_release():
    """C1's one head released (R1), no one recorded as receiving it, built as of 30-11-2026 once for the
    module (read only): each test below writes its papers from it."""
    con = built_rows(as_of=dt.date(2026, 11, 30), impoundments=[case("C1", head_count=1)],
                     releases=[{**RELEASE, "release_id": "R1", "case_id": "C1", "head_count": 1}])
    yield con
    con.close()


def test_a_receipt_names_its_signer_and_counts_in_english(tmp_path):
    _write(tmp_path, impoundments=[case("C1", head_count=1), case("C2", owner_id="O2", head_count=2)],
           releases=[{**RELEASE, "release_id": "R1", "case_id": "C1", "head_count": 1,
                      "released_to": "Owner O1 (owner)"},
                     {**RELEASE, "release_id": "R2", "case_id": "C2", "head_count": 2,
                      "released_to": "Ravi (agent of Owner O2)"}])
    one, two = _text(tmp_path / "release_receipt_R1.html"), _text(tmp_path / "release_receipt_R2.html")
    assert "I, Owner O1, the owner of the cattle, acknowledge the receipt of 1 head of cattle delivered" in one
    assert "Owner O1, the owner of the cattle: signature" in one
    assert "I, Ravi, agent of Owner O2, acknowledge the receipt of 2 head of cattle delivered" in two
    assert "owner of the cattle or his agent" not in one + two
    assert "1 cattle" not in one and "2 cattle" not in two


def test_a_receipt_with_no_one_recorded_leaves_the_line_to_fill_in(one_release, tmp_path):
    write_papers(one_release, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
    text = _text(tmp_path / "release_receipt_R1.html")
    assert "I, ____________________, owner of the cattle or his agent, acknowledge" in text
    assert "Owner or agent: signature" in text


@pytest.mark.parametrize("pdf", [False, True])
def test_the_index_is_a_table_of_kind_case_pound_owner_and_date_linking_every_paper(one_release, tmp_path, pdf):
    from bs4 import BeautifulSoup

    written = write_papers(one_release, tmp_path, Scope(), as_of=dt.date(2026, 11, 30), pdf=pdf)
    soup = BeautifulSoup((tmp_path / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert [th.get_text() for th in soup.select("#papers thead th")] == ["kind", "case", "pound", "owner", "date",
                                                                          "paper"]
    rows = {tr.select("a")[0]["href"]: [td.get_text(" ", strip=True) for td in tr.select("td")]
            for tr in soup.select("#papers tbody tr")}
    assert set(rows) == {f"{w.paper.name}.html" for w in written}
    receipt = rows["release_receipt_R1.html"]
    assert receipt[:5] == ["release receipt", "C1", receipt[2], "Owner O1", "03-10-2026"] and receipt[2]
    pdf_links = {a["href"] for a in soup.select("a") if a["href"].endswith(".pdf")}
    if pdf:
        assert "release_receipt_all.pdf" in pdf_links and "release_receipt_R1.pdf" in pdf_links
    else:
        assert pdf_links == set()


@pytest.fixture(scope="module")
def texts(sample_papers):
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


@pytest.mark.parametrize("receipts, parts", [
    ((("DM1", "2026-10-20", "500"), ("DM2", "2026-11-15", "300")), "Rs 500.00 on 21-04-2027; Rs 300.00 on 16-05-2027"),
    ((("DM1", "2026-10-20", "500"),), "Rs 500.00 on 21-04-2027; Rs 300.00 not yet received by the District Magistrate"),
], ids=["both-received", "one-received"])
def test_the_account_of_sale_names_each_part_of_the_surplus_and_its_day(tmp_path, receipts, parts):
    # the sale of tests/build/test_sale_parts_and_reseizure_sale.py: Rs 800.00 of surplus, received by the DM
    # in parts on 20-10-2026
    # (Rs 500.00: + 6 months + 1 day = 21-04-2027) and 15-11-2026 (Rs 300.00: 16-05-2027)
    from bs4 import BeautifulSoup

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build"))
    from test_sale_parts_and_reseizure_sale import _parts

    con = _parts("2026-11-30", None, receipts=receipts)     # built whole: papers are written from a whole build
    try:
        write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
    finally:
        con.close()
    [paper] = tmp_path.glob("owner_account_*.html")
    text = " ".join(BeautifulSoup(paper.read_text(encoding="utf-8"), "html.parser").get_text().split())
    assert f"credited to the local fund in parts, each six months and a day after he receives it: {parts}." in text
