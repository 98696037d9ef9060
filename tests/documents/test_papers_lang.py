"""The papers in Kannada and in both languages: pound documents --lang, the parameter papers_lang,
amounts in words, Kannada digits, lang="kn" on the Kannada text."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from bs4 import BeautifulSoup
from helpers import built_rows, case

from pipeline.core.errors import PoundError
from pipeline.core.words import amount_words, kannada_digits, kannada_number
from pipeline.documents.papers import Scope
from pipeline.documents.render import write_papers

pytestmark = pytest.mark.xdist_group("papers_lang")     # one test process: the module's small build made once

# hand-picked amounts (paise) and their words, English (num2words en_IN) and Kannada (core/words.py)
AMOUNTS = [
    (0, "Rupees zero only", "ರೂಪಾಯಿ ಸೊನ್ನೆ ಮಾತ್ರ"),
    (100, "Rupees one only", "ರೂಪಾಯಿ ಒಂದು ಮಾತ್ರ"),
    (2100, "Rupees twenty-one only", "ರೂಪಾಯಿ ಇಪ್ಪತ್ತೊಂದು ಮಾತ್ರ"),
    (10000, "Rupees one hundred only", "ರೂಪಾಯಿ ನೂರು ಮಾತ್ರ"),
    (100000, "Rupees one thousand only", "ರೂಪಾಯಿ ಒಂದು ಸಾವಿರ ಮಾತ್ರ"),
    (485000, "Rupees four thousand eight hundred and fifty only", "ರೂಪಾಯಿ ನಾಲ್ಕು ಸಾವಿರದ ಎಂಟುನೂರ ಐವತ್ತು ಮಾತ್ರ"),
    (12000000, "Rupees one lakh twenty thousand only", "ರೂಪಾಯಿ ಒಂದು ಲಕ್ಷದ ಇಪ್ಪತ್ತು ಸಾವಿರ ಮಾತ್ರ"),
    (100000050, "Rupees ten lakh and fifty paise only", "ರೂಪಾಯಿ ಹತ್ತು ಲಕ್ಷ ಮತ್ತು ಐವತ್ತು ಪೈಸೆ ಮಾತ್ರ"),
]


@pytest.mark.parametrize(("paise", "english", "kannada"), AMOUNTS)
def test_amounts_in_words(paise, english, kannada):
    assert amount_words(paise, "en") == english
    assert amount_words(paise, "kn") == kannada


@pytest.mark.parametrize(("n", "words"), [
    (11, "ಹನ್ನೊಂದು"), (19, "ಹತ್ತೊಂಬತ್ತು"), (23, "ಇಪ್ಪತ್ಮೂರು"), (45, "ನಲವತ್ತೈದು"), (99, "ತೊಂಬತ್ತೊಂಬತ್ತು"),
    (101, "ನೂರ ಒಂದು"), (250, "ಇನ್ನೂರ ಐವತ್ತು"), (900, "ಒಂಬೈನೂರು"), (2000, "ಎರಡು ಸಾವಿರ"),
    (1_00_001, "ಒಂದು ಲಕ್ಷದ ಒಂದು"), (1_00_00_000, "ಒಂದು ಕೋಟಿ"),
    (12_34_56_789, "ಹನ್ನೆರಡು ಕೋಟಿ ಮೂವತ್ನಾಲ್ಕು ಲಕ್ಷದ ಐವತ್ತಾರು ಸಾವಿರದ ಏಳುನೂರ ಎಂಬತ್ತೊಂಬತ್ತು"),
])
def test_kannada_numbers(n, words):
    assert kannada_number(n) == words


def test_every_number_has_kannada_words_and_no_stray_sign():
    for n in range(0, 200_000, 7):
        w = kannada_number(n)
        assert w and "  " not in w and not re.search(r"[A-Za-z0-9]", w), n
        assert "\u0ccd " not in w and not w.endswith("\u0ccd"), (n, w)     # no dangling virama


def test_kannada_digits():
    assert kannada_digits("Rs 1,20,000.00") == "Rs ೧,೨೦,೦೦೦.೦೦"


@pytest.fixture(scope="module")
def con():
    """C1, its owner named in Kannada, and C2, its owner named in English, built as of 30-11-2026 once for
    the module (read only): each test writes its papers from it."""
    c = built_rows(as_of=dt.date(2026, 11, 30), impoundments=[case("C1", owner_name="ಮಹದೇವಪ್ಪ"),
                                                              case("C2", owner_id="O2", owner_name="Puttaswamy")])
    yield c
    c.close()


def _pages(con, out, lang, **kw):
    return {w.paper.name: w.path.read_text(encoding="utf-8")
            for w in write_papers(con, out, Scope(), as_of=dt.date(2026, 11, 30), lang=lang, **kw)}


def test_english_stays_the_default(con, tmp_path):
    pages = _pages(con, tmp_path, "en")
    assert pages and all('<html lang="en">' in html for html in pages.values())
    assert "Rupees" not in pages["notice_C1"]


def test_kannada_papers_say_so_and_officials_papers_stay_english(con, tmp_path):
    pages = _pages(con, tmp_path, "kn")
    assert '<html lang="kn">' in pages["notice_C1"]
    assert "ಡಂಗುರ ಸಾರಿ ಘೋಷಿಸಲು" in pages["notice_C1"]
    assert '<html lang="en">' in pages["police_report_C1"]
    assert '<html lang="en">' in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_both_puts_kannada_first_and_english_below(con, tmp_path):
    html = _pages(con, tmp_path, "both")["notice_C1"]
    soup = BeautifulSoup(html, "html.parser")
    assert soup.html["lang"] == "kn"
    english = soup.find("div", attrs={"lang": "en"})
    assert english is not None and "For proclamation by beat of drum" in english.get_text()
    assert html.index("ಡಂಗುರ ಸಾರಿ ಘೋಷಿಸಲು") < html.index("For proclamation by beat of drum")
    assert len(soup.find_all("main")) == 1


def test_kannada_digits_are_a_setting(con, tmp_path):
    plain = _pages(con, tmp_path / "a", "kn")["notice_C1"]
    digits = _pages(con, tmp_path / "b", "kn", digits=True)["notice_C1"]
    assert "೦" not in BeautifulSoup(plain, "html.parser").find("main").get_text()
    assert "೦" in BeautifulSoup(digits, "html.parser").find("main").get_text()


def test_an_unknown_language_is_refused(con, tmp_path):
    with pytest.raises(PoundError, match="en, kn, both"):
        _pages(con, tmp_path, "fr")


def test_pound_documents_lang(golden_db, tmp_path, run_cli):
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "kn", "--case", "G05",
                           "--lang", "kn")
    assert code == 0, err
    assert '<html lang="kn">' in (tmp_path / "kn" / "notice_G05.html").read_text(encoding="utf-8")
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "en", "--case", "G05")
    assert code == 0, err        # the build's parameter papers_lang: en by default
    assert '<html lang="en">' in (tmp_path / "en" / "notice_G05.html").read_text(encoding="utf-8")


def test_english_register_text_on_a_kannada_paper_is_marked_english(con, tmp_path):
    html = _pages(con, tmp_path, "kn")["notice_C2"]
    soup = BeautifulSoup(html, "html.parser")
    pound = soup.find("span", attrs={"lang": "en"})
    assert pound is not None and pound.get_text().strip()


def test_the_build_parameter_papers_lang_is_the_default_and_lang_overrides_it(golden_db, tmp_path, run_cli):
    import shutil

    import duckdb

    db = tmp_path / "pound.duckdb"
    shutil.copy(golden_db / "pound.duckdb", db)
    con = duckdb.connect(str(db))
    try:     # as `pound build --params` writes papers_lang = "both" into the parameters table
        con.execute("UPDATE parameters SET value = '\"both\"', is_default = false WHERE name = 'papers_lang'")
        assert con.execute("SELECT count(*) FROM parameters WHERE name = 'papers_lang'").fetchone()[0] == 1
    finally:
        con.close()
    code, _, err = run_cli("documents", "--db", db, "--out", tmp_path / "p", "--case", "G05")
    assert code == 0, err
    html = (tmp_path / "p" / "notice_G05.html").read_text(encoding="utf-8")
    assert '<html lang="kn">' in html and '<div lang="en" class="in-english">' in html
    code, _, err = run_cli("documents", "--db", db, "--out", tmp_path / "q", "--case", "G05", "--lang", "en")
    assert code == 0, err
    assert '<html lang="en">' in (tmp_path / "q" / "notice_G05.html").read_text(encoding="utf-8")


def test_the_desk_carries_its_papers_language():
    from pathlib import Path

    from pipeline.desk.places import Places

    assert Places(Path("b"), Path("d"), Path("o")).papers_lang is None
    assert Places(Path("b"), Path("d"), Path("o"), "both").papers_lang == "both"
