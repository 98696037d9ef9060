"""Every paper the public reads, in Kannada and in both languages, on the sample, printed: pdftotext
gives back the Kannada of the catalogue (no replacement character, no glyph missing), the Kannada
fonts are embedded (pdffonts), the figures are the English paper's, and axe-core finds nothing."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from axe import describe, violations
from bs4 import BeautifulSoup
from printed import pdf_text
from test_documents import figures

from pipeline.core.script import has_kannada

pytestmark = pytest.mark.xdist_group("papers_kannada_printed")     # one test process: its papers printed once, not once in each test process

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
# an s.15 sale with its notice, an s.17 sale with its release, a disposal, and a security deposit
CASES = ("H-2610-018", "N-2610-013", "M-2610-022", "N-2608-010")
PUBLIC = ("notice", "release_receipt", "owner_account", "security_receipt")


def _tools_or_skip():
    from pipeline.documents.pdf import DEBIAN_CHROMIUM

    if not DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed")
    if not shutil.which("pdftotext") or not shutil.which("pdffonts"):
        pytest.skip("poppler-utils is not installed (make browser installs it)")


@pytest.fixture(scope="module")
def printed(shared, sample_papers):
    """The sample's papers of CASES as of 30-11-2026 in kn and both, printed, and in en the sample's
    papers as of that day, printed (conftest's sample_papers: every case's, CASES' among them, each the
    same page as printed with --case but for the scope it records): {lang: folder} (read only)."""
    _tools_or_skip()
    db = shared.run(SAMPLE, "2026-11-30") / "pound.duckdb"

    def make(out):
        from shared import quietly

        from pipeline.cli import main

        for lang in ("kn", "both"):
            args = ["documents", "--db", str(db), "--out", str(out / lang), "--pdf", "--lang", lang]
            for c in CASES:
                args += ["--case", c]
            assert quietly(main, args)[0] == 0

    folder = shared.once("sample-papers-kannada", make)
    return {"en": sample_papers, "kn": folder / "kn", "both": folder / "both"}


def _public(folder: Path) -> list[Path]:
    pages = sorted(p for p in folder.glob("*.html") if p.name.startswith(PUBLIC))
    assert {p.name.split("_")[0] for p in pages} >= {"notice", "release", "owner", "security"}
    return pages


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _amount(value: str) -> str:
    """A figure without its currency: 'Rs 1,20,000.00' and 'ರೂ. 1,20,000.00' are the same amount."""
    return value.replace("ರೂ. ", "").replace("Rs ", "")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["kn", "both"])
def test_the_pdf_gives_back_the_kannada_of_the_catalogue(printed, lang):
    for page in _public(printed[lang]):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        text = pdf_text(page.with_suffix(".pdf"))
        assert "\ufffd" not in text, page.name
        squeezed = _squeezed(text)
        # every heading and row label of the Kannada paper, as the catalogue gives it, is in the PDF
        kannada = [el.get_text() for el in soup.select("main h1, main h2, main th") if has_kannada(el.get_text())]
        if lang == "both":
            kannada = [el.get_text() for el in soup.select("main h1, main h2, main th")
                       if has_kannada(el.get_text()) and el.find_parent(attrs={"lang": "en"}) is None]
        assert kannada, page.name
        for line in kannada:
            assert _squeezed(line) in squeezed, (page.name, line)
        if lang == "both":
            english = soup.find("div", attrs={"lang": "en"})
            assert english is not None and _squeezed(english.find("h1").get_text()) in squeezed, page.name


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["kn", "both"])
def test_the_kannada_fonts_are_embedded(printed, lang):
    for page in _public(printed[lang]):
        out = subprocess.run(["pdffonts", str(page.with_suffix(".pdf"))], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
        assert out, page.name
        assert any(re.search(r"Noto(Sans|Serif)Kannada", line) for line in out), (page.name, out)
        assert all(line.split()[-5] == "yes" for line in out), (page.name, out)      # emb


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["kn", "both"])
def test_the_figures_are_the_english_papers(printed, lang):
    for page in _public(printed[lang]):
        english = figures((printed["en"] / page.name).read_text(encoding="utf-8"))
        html = page.read_text(encoding="utf-8")
        assert english, page.name
        if lang == "both":     # the Kannada part, then the English part: each the English paper's figures
            at = html.index('<div lang="en" class="in-english">')
            parts = [html[:at], html[at:]]
        else:
            parts = [html]
        for part in parts:
            got = figures(part)
            assert {c: _amount(v) for c, v in got.items()} == {c: _amount(v) for c, v in english.items()}, page.name
        printed_text = pdf_text(page.with_suffix(".pdf"))
        for column, value in english.items():
            assert _amount(value) in printed_text, (page.name, column, value)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["kn", "both"])
def test_axe_finds_nothing_on_the_kannada_papers(browser, printed, lang):
    for page_path, page in browser.each_page(_public(printed[lang])):
        found = violations(page)
        assert found == [], (page_path.name, describe(found))
        assert 'lang="kn"' in page_path.read_text(encoding="utf-8")


@pytest.mark.browser
@pytest.mark.parametrize("lang, number", [("both", "ಪುಟ / page 1 / "), ("en", "page 1 of ")])
def test_the_page_number_is_in_each_language_of_the_paper(printed, lang, number):
    """A paper in both languages is numbered in both, its English sheets too; an English one in English."""
    of_cases = {p.name for p in _public(printed["kn"])}        # CASES' papers (printed["en"] holds every case's)
    for page in (p for p in _public(printed[lang]) if p.name in of_cases):
        assert number in pdf_text(page.with_suffix(".pdf")), page.name
