"""One browser per batch of PDFs (documents/pdf.py): a page that fails is printed again in a fresh
tab, and a batch that fails leaves every PDF as it was."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pipeline.core.errors import PoundError
from pipeline.documents import pdf


class _Tab:
    """A tab of a stand-in browser: `fails` says, per page, how many of its tries fail."""

    def __init__(self, browser):
        self.browser, self.url = browser, None

    def goto(self, url, **kw):
        self._load(Path(url).name, "goto")

    def set_content(self, html, **kw):
        # the stand-in papers say their number: <p>paper 3</p> is paper_3.html
        number = re.search(r"paper (\d+)", html).group(1)
        self._load(f"paper_{number}.html", "set_content")

    def _load(self, name, how):
        self.url = name
        self.browser.how[name] = how
        self.browser.tries[name] = self.browser.tries.get(name, 0) + 1
        if self.browser.tries[name] <= self.browser.fails.get(name, 0):
            raise RuntimeError(f"Target crashed while loading {name}")

    def wait_for_function(self, *a, **kw):
        pass

    def evaluate(self, *a):
        return True

    def pdf(self, **kw):
        return b"%PDF-1.4 " + Path(self.url).name.encode()

    def close(self):
        self.browser.closed += 1


class _Browser:
    def __init__(self, fails: dict[str, int]):
        self.fails, self.tries, self.opened, self.closed, self.how = fails, {}, 0, 0, {}

    def new_page(self):
        self.opened += 1
        return _Tab(self)


def _pages(folder: Path, n: int) -> list[tuple[Path, Path]]:
    jobs = []
    for i in range(n):
        html = folder / f"paper_{i}.html"
        html.write_text(f"<p>paper {i}</p>")
        old = html.with_suffix(".pdf")
        old.write_bytes(b"%PDF the earlier print")
        jobs.append((html, old))
    return jobs


def test_the_pages_of_a_batch_go_through_one_tab(tmp_path):
    jobs = _pages(tmp_path, 4)
    browser = _Browser({})
    pdf.print_in(browser, jobs, report=True)
    assert (browser.opened, browser.closed) == (1, 1) and all(n == 1 for n in browser.tries.values())


def test_a_page_that_fails_once_is_printed_again_in_a_fresh_tab(tmp_path):
    jobs = _pages(tmp_path, 3)
    browser = _Browser({"paper_1.html": 1})
    assert pdf.print_in(browser, jobs, report=False) == [p for _, p in jobs]
    assert browser.tries == {"paper_0.html": 1, "paper_1.html": 2, "paper_2.html": 1}
    # one tab for the batch; the one that failed closed, and the page tried again in a fresh one
    assert (browser.opened, browser.closed) == (2, 2)
    assert [p.read_bytes() for _, p in jobs] == [f"%PDF-1.4 paper_{i}.html".encode() for i in range(3)]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_batch_that_fails_leaves_every_pdf_as_it_was(tmp_path):
    jobs = _pages(tmp_path, 3)
    browser = _Browser({"paper_2.html": pdf.TRIES})         # the last page fails every try
    with pytest.raises(PoundError, match=r"could not print .*paper_2.html to PDF \(Target crashed"):
        pdf.print_in(browser, jobs, report=False)
    assert browser.tries["paper_2.html"] == pdf.TRIES
    # the pages printed before it are not put in place: the batch is whole or not at all
    assert [p.read_bytes() for _, p in jobs] == [b"%PDF the earlier print"] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"paper_{i}.{ext}" for i in range(3) for ext in ("html", "pdf")])      # no partial file left


def test_a_paper_whole_in_itself_is_written_into_the_tab_and_one_naming_a_file_is_opened_from_it(tmp_path):
    jobs = _pages(tmp_path, 3)
    jobs[1][0].write_text('<p>paper 1</p><img src="seal.png" alt="seal">')       # names a file beside it
    browser = _Browser({})
    pdf.print_in(browser, jobs, report=False)
    assert browser.how == {"paper_0.html": "set_content", "paper_1.html": "goto", "paper_2.html": "set_content"}
    # a report page (its plotly.js beside it) is always opened from its file
    (tmp_path / "reports").mkdir()
    browser = _Browser({})
    pdf.print_in(browser, _pages(tmp_path / "reports", 2), report=True)
    assert set(browser.how.values()) == {"goto"}


@pytest.mark.parametrize("page, refers", [
    ("<style>p { color: red }</style><p>x</p>", False), ('<img src="data:image/png;base64,AA==">', False),
    ('<a href="other.pdf">other</a>', False),
    ('<link rel="stylesheet" href="paper.css">', True), ('<script src="x.js"></script>', True),
    ("<style>@font-face { src: url(font.woff2) }</style>", True), ('<IMG SRC="seal.png">', True),
    ("<style>@import 'more.css';</style>", True)])
def test_which_papers_name_a_file(page, refers):
    assert pdf._refers_to_files(page) is refers


@pytest.mark.browser
def test_a_batch_in_chromium_that_fails_leaves_the_papers_as_before(tmp_path):
    if not pdf.DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")
    jobs = _pages(tmp_path, 2)
    gone = tmp_path / "gone"
    gone.mkdir()
    jobs.append((gone / "missing.html", tmp_path / "missing.pdf"))     # the browser cannot load it
    gone.rmdir()
    with pytest.raises(PoundError, match="missing.html to PDF"):
        pdf._print_batch(jobs, report=False)
    assert [p.read_bytes() for _, p in jobs[:2]] == [b"%PDF the earlier print"] * 2
    assert not (tmp_path / "missing.pdf").exists() and not list(tmp_path.glob(".*"))
    # the same batch without the missing page prints in one browser, each paper its own PDF
    assert pdf._print_batch(jobs[:2], report=False) == [p for _, p in jobs[:2]]
    assert all(p.read_bytes().startswith(b"%PDF-") and p.stat().st_size > 500 for _, p in jobs[:2])
