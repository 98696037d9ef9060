"""Printing the papers to PDF with Debian's headless Chromium: one PDF per page written, and one
combined PDF per kind (pypdf). Without Chromium, PoundError names the package to install; the
steps ask before they write anything, so the pages and their PDFs are written as one set."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.whole import partial_of

CHROMIUM_NAMES = ("chromium", "chromium-browser")
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--no-pdf-header-footer")


def chromium() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    if DEBIAN_CHROMIUM.exists():
        return str(DEBIAN_CHROMIUM)
    raise PoundError("--pdf needs Chromium, which is not installed: install the Debian package 'chromium' "
                     "(sudo apt-get install chromium, or 'make browser'); nothing was written")


LAUNCH_ARGS = tuple(a for a in CHROMIUM_ARGS if a not in ("--headless", "--no-pdf-header-footer"))

# A report's charts draw themselves once, at the window's width: lay the page out at the width of
# A4 inside its margins (about 700 CSS px), and let their scripts finish before printing.
REPORT_VIEWPORT = {"width": 700, "height": 1000}
CHARTS_DRAWN = ("() => Array.from(document.querySelectorAll('.plotly-graph-div'))"
                ".every(d => d.querySelector('.main-svg') !== null)")
CHARTS_WAIT = 10_000          # ms, as the command line's --virtual-time-budget gave them
PAGE_WAIT = 120_000           # ms for one page to load and print
TRIES = 2                     # a page that fails is printed once more, in a fresh tab


def print_pdf(html: Path, pdf: Path, browser: str | None = None, report: bool = False) -> Path:
    """One HTML page printed to one PDF (A4, as the page's @page rule asks)."""
    return _print_batch([(Path(html), Path(pdf))], report, browser)[0]


def _print_batch(jobs: list[tuple[Path, Path]], report: bool, browser: str | None = None) -> list[Path]:
    """Every page of a batch printed by one Chromium, started once (most of a page's print was
    Chromium starting) and driven over its DevTools protocol on a pipe (cdp.py). A page that fails
    is tried again in a fresh tab (TRIES in all). Each PDF is written to a partial file beside it,
    and only once every page of the batch has printed are they renamed into place: a batch that
    fails leaves every PDF as it was, and no partial file."""
    if not jobs:
        return []
    from pipeline.documents.cdp import Chromium

    executable = browser or chromium()
    try:
        started = Chromium(executable, LAUNCH_ARGS, viewport=REPORT_VIEWPORT if report else None)
    except OSError as exc:
        raise PoundError(f"Chromium ({executable}) could not be started to print PDFs ({exc.strerror})") from None
    with started:
        return print_in(started, jobs, report)


def print_in(context, jobs: list[tuple[Path, Path]], report: bool) -> list[Path]:
    """The batch printed in one browser (cdp.Chromium, or anything with its new_page()), whole or not at all.
    The pages go through one tab, one after another (a tab for each cost a renderer started for
    each); after a failure the page is tried again in a fresh tab."""
    done: list[Path] = []
    tab = [None]
    try:
        for html, pdf in jobs:
            done.append(_print_one(context, html, partial_of(Path(pdf)), report, tab))
    except BaseException:
        for partial in done:
            partial.unlink(missing_ok=True)
        raise
    finally:
        if tab[0] is not None:
            tab[0].close()
    for (_, pdf), partial in zip(jobs, done, strict=True):
        os.replace(partial, pdf)
    return [Path(pdf) for _, pdf in jobs]


# a page that loads something from beside it (a script, a style sheet, an image, a font): it is
# printed from its file, so that what it names is found
_REFERS = re.compile(r"""<(?:script|link|img|iframe|object|embed|source)\b[^>]*\b(?:src|href|data)\s*=\s*(?!["']?data:)|"""
                     r"""url\(\s*(?!["']?data:)|@import""", re.I)


def _refers_to_files(page: str) -> bool:
    return _REFERS.search(page) is not None


def _print_one(context, html: Path, partial: Path, report: bool, tab: list) -> Path:
    """One page printed into `partial` in the batch's tab (tab[0]), a fresh one for each try after
    a failure."""
    failed = ""
    for _ in range(TRIES):
        page = None
        try:
            if tab[0] is None:
                tab[0] = context.new_page()
            page = tab[0]
            text = None if report else Path(html).read_text(encoding="utf-8")
            if text is not None and not _refers_to_files(text):
                # a paper whole in itself is written into the tab's one document: a navigation to each
                # file started a renderer for each (file: addresses are each a site of their own), about
                # half of the papers' printing
                page.set_content(text, wait_until="load", timeout=PAGE_WAIT)
            else:
                page.goto(Path(html).resolve().as_uri(), wait_until="load", timeout=PAGE_WAIT)
            if report:
                try:
                    page.wait_for_function(CHARTS_DRAWN, timeout=CHARTS_WAIT)
                except Exception:
                    pass                   # printed as drawn so far, as the time budget did
            page.evaluate("document.fonts.ready.then(() => true)")
            data = page.pdf(prefer_css_page_size=True)
            if not data.startswith(b"%PDF"):
                raise PoundError("no PDF written")
            partial.write_bytes(data)
            return partial
        except Exception as exc:
            failed = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
            tab[0] = None
            if page is not None:
                with contextlib.suppress(Exception):
                    page.close()
    raise PoundError(f"Chromium could not print {html} to PDF ({failed})")


def _print_many(pages: list[Path], report: bool = False) -> list[Path]:
    return _print_batch([(p, p.with_suffix(".pdf")) for p in pages], report)


def print_reports(pages: list[Path]) -> list[Path]:
    """Each report page to a PDF beside it, in one browser."""
    return _print_many(pages, report=True)


def combine(pdfs: list[Path], out: Path) -> Path:
    """The PDFs one after the other in one file."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for p in pdfs:
        writer.append(str(p))
    with out.open("wb") as fh:
        writer.write(fh)
    writer.close()
    return out


def print_all(groups: dict[str, list[Path]], out: Path) -> list[Path]:
    """Each page of each kind to PDF beside its HTML (every page of every kind in one browser), then
    <kind>_all.pdf per kind; the paths written."""
    pages = [p for kind_pages in groups.values() for p in kind_pages]
    printed = dict(zip(pages, _print_many(pages), strict=True))
    written: list[Path] = []
    for kind, kind_pages in groups.items():
        pdfs = [printed[p] for p in kind_pages]
        written.extend(pdfs)
        if pdfs:
            written.append(combine(pdfs, Path(out) / f"{kind}_all.pdf"))
    return written
