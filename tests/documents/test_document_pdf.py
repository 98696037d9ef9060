"""The papers printed: `pound documents --pdf` through headless Chromium (pages, text read back with
pypdf), a page fitting A4 in the browser, and the message when Chromium is missing."""

from __future__ import annotations

import datetime as dt
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from browser import opened
from helpers import built_rows, case

from pipeline.documents import pdf
from pipeline.documents.papers import Scope
from pipeline.documents.render import write_papers

A4_CSS_PX = 794          # 210 mm at 96 px to the inch


def _chromium_or_skip():
    if not pdf.DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")


def _text(path: Path) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    return len(reader.pages), "\n".join(p.extract_text() for p in reader.pages)


@pytest.mark.browser
def test_pdf_of_each_paper_and_one_per_kind(golden_db, tmp_path, run_cli):
    _chromium_or_skip()
    out = tmp_path / "papers"
    code, stdout, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", out,
                                "--case", "G05", "--case", "G06", "--pdf")
    assert code == 0, err
    # (G05's surplus credited before the DM's six months ended, R21: a memo to the DM's accounts section;
    # its auction SA1 a day before the owner's days from the proclamation ran out, R25: a memo to its officer S1)
    assert sorted(p.name for p in out.glob("*.pdf")) == [
        "findings_memo_S1_2026-08.pdf", "findings_memo_accounts-DM-Dist_2026-10.pdf", "findings_memo_all.pdf", "notice_G05.pdf", "notice_all.pdf", "owner_account_G05.pdf", "owner_account_G06.pdf",
        "owner_account_all.pdf", "police_report_G05.pdf", "police_report_all.pdf", "release_receipt_R06.pdf",
        "release_receipt_all.pdf"]
    # every figure of every page (each checked against the exports in test_documents) is in its PDF
    from test_documents import figures
    for html in out.glob("*_G0[56].html"):
        printed = _pdftotext(html.with_suffix(".pdf"))
        for column, value in figures(html.read_text(encoding="utf-8")).items():
            assert value in printed, (html.name, column, value)
    pages, text = _text(out / "owner_account_G06.pdf")
    assert pages == 1
    # the figures of tests/golden/expected/owner_accounts.csv, as the paper writes them
    for figure in ("Rs 6,750.00", "Rs 12,000.00", "Rs 4,850.00", "10-08-2026", "20-08-2026", "Receipt"):
        assert figure in text, figure
    pages, text = _text(out / "owner_account_all.pdf")
    assert pages == 2 and "Rs 3,000.00" in text and "15-02-2027" in text
    pages, text = _text(out / "police_report_all.pdf")
    # reported 07-08; sale from 12-08, the day after the owner's 3 days from the proclamation of 08-08 (R25)
    assert pages == 1 and "07-08-2026" in text and "12-08-2026" in text


def _pdftotext(path: Path) -> str:
    # poppler reads shaped Kannada back whole; pypdf loses the conjuncts (ದೇ, ಪ್ಪ) Chromium writes as
    # single glyphs, so the Kannada check reads the PDF as a person copying from it would.
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (make browser installs Debian's poppler-utils)")
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.browser
def test_kannada_names_print_intact(tmp_path):
    _chromium_or_skip()
    con = built_rows(impoundments=[case("C1", owner_name="ಮಹದೇವಪ್ಪ", owner_village="ಹುಣಸೂರು")])
    try:
        written = write_papers(con, tmp_path, Scope(cases=("C1",)), as_of=dt.date(2026, 11, 30))
    finally:
        con.close()
    page = next(w.path for w in written if w.paper.name == "police_report_C1")
    printed = pdf.print_pdf(page, tmp_path / "report.pdf")
    pages, _ = _text(printed)
    assert pages == 1
    assert "ಮಹದೇವಪ್ಪ, ಹುಣಸೂರು" in _pdftotext(printed)
    from pypdf import PdfReader
    fonts = {str(f["/BaseFont"]) for p in PdfReader(str(printed)).pages
             for f in p["/Resources"]["/Font"].values()}
    assert any("Kannada" in f for f in fonts), fonts        # a font that has the letters, embedded


def _png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


@pytest.mark.browser
def test_a_long_paper_fits_a4_without_clipping(browser, tmp_path):
    # a long unbroken description and many findings: tables must wrap, not overflow the page
    long_text = "brown-and-white-with-a-cut-left-ear-" * 12
    con = built_rows(impoundments=[case(f"C{i}", impounded_on=f"2026-10-{i:02d}", owner_id=f"O{i}",
                                        description=long_text, place_of_seizure=long_text) for i in range(1, 15)])
    try:
        written = write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
    finally:
        con.close()
    pages = [w.path for w in written if w.paper.name in ("police_report_C1", "findings_memo_PK1_2026-10")]
    assert len(pages) == 2
    page = None
    for path in pages:
        # the first opened in an offline context of A4's width, the second taken to in the same tab
        if page is None:
            page, requests, errors = browser.open(path, charts=False,
                                                  context_args={"viewport": {"width": A4_CSS_PX, "height": 1123}})
        else:
            page, requests, errors = opened(page, path, [], charts=False)
        page.emulate_media(media="print")
        assert not errors
        assert all(u.startswith(("file:", "data:")) for u in requests)
        overflow = page.evaluate("""() => {
            const body = document.body.getBoundingClientRect();
            const bad = [];
            for (const el of document.querySelectorAll('table, td, th, p, div')) {
                const r = el.getBoundingClientRect();
                if (r.right > body.right + 1 || el.scrollWidth > el.clientWidth + 1) bad.push(el.tagName + ':' + el.textContent.slice(0, 40));
            }
            return {bad, width: document.documentElement.scrollWidth};
        }""")
        assert overflow["bad"] == [] and overflow["width"] <= A4_CSS_PX, (path.name, overflow)
        shot = page.screenshot(full_page=True)
        assert _png_size(shot)[0] == A4_CSS_PX      # nothing pushed the page wider than A4
        printed = tmp_path / f"{path.stem}.pdf"
        page.pdf(path=str(printed), prefer_css_page_size=True)
        n, text = _text(printed)
        assert n >= 1 and "Pound-keeper" in text
    page.context.close()


def test_without_chromium_pdf_fails_naming_the_package_and_writes_nothing(golden_db, tmp_path, run_cli, monkeypatch):
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    monkeypatch.setattr(pdf, "DEBIAN_CHROMIUM", tmp_path / "no-chromium")
    out = tmp_path / "papers"
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", out, "--case", "G06", "--pdf")
    assert code == 1
    assert "install the Debian package 'chromium'" in err and "Traceback" not in err
    assert not out.exists() or not list(out.iterdir())          # the set whole, or nothing
    # the near miss: without --pdf the papers are written
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", out, "--case", "G06")
    assert code == 0, err
    assert (out / "owner_account_G06.html").exists() and (out / "index.html").exists()
