"""The papers read as English does: counts and classes ("1 head of cattle", "2 sheep"), the
receipt's signer named with whether owner or agent as the release records, and the papers'
index a table of kind, case, pound, owner and date linking every paper (and, printed, the PDFs)."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

import pytest
from helpers import built_rows, case

from pipeline.documents.papers import Scope
from pipeline.documents.render import animals, counted, signer, write_papers


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


def _write(tmp_path, pdf=False, **tables):
    con = built_rows(as_of=dt.date(2026, 11, 30), **tables)
    try:
        return write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30), pdf=pdf)
    finally:
        con.close()


RELEASE = {"basis": "s12_payment", "fines_paid": "600", "charges_paid": "1600", "receipt_signed": "yes",
           "released_on": "2026-10-03"}


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


def test_a_receipt_with_no_one_recorded_leaves_the_line_to_fill_in(tmp_path):
    _write(tmp_path, impoundments=[case("C1", head_count=1)],
           releases=[{**RELEASE, "release_id": "R1", "case_id": "C1", "head_count": 1}])
    text = _text(tmp_path / "release_receipt_R1.html")
    assert "I, ____________________, owner of the cattle or his agent, acknowledge" in text
    assert "Owner or agent: signature" in text


@pytest.mark.parametrize("pdf", [False, True])
def test_the_index_is_a_table_of_kind_case_pound_owner_and_date_linking_every_paper(tmp_path, pdf):
    from bs4 import BeautifulSoup

    written = _write(tmp_path, pdf=pdf, impoundments=[case("C1", head_count=1)],
                     releases=[{**RELEASE, "release_id": "R1", "case_id": "C1", "head_count": 1}])
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
