"""Printing the papers to PDF with Debian's headless Chromium: one PDF per page written, and one
combined PDF per kind (pypdf). Without Chromium, PoundError names the package to install; the
steps ask before they write anything, so the pages and their PDFs are written as one set."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipeline.core.errors import PoundError

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


# A report's charts draw themselves once, at the window's width: lay the page out at the width of
# A4 inside its margins (about 700 CSS px), and let their scripts finish before printing.
REPORT_ARGS = ("--window-size=700,1000", "--virtual-time-budget=10000")


def print_pdf(html: Path, pdf: Path, browser: str | None = None, extra: tuple[str, ...] = ()) -> Path:
    """One HTML page printed to one PDF (A4, as the page's @page rule asks)."""
    browser = browser or chromium()
    # a profile of its own, so that several pages print at once without finding each other's browser
    with tempfile.TemporaryDirectory(prefix="pound-chromium-") as profile:
        cmd = [browser, *CHROMIUM_ARGS, *extra, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
               Path(html).resolve().as_uri()]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            raise PoundError(f"Chromium did not finish printing {html} within two minutes") from None
    if done.returncode != 0 or not pdf.exists() or pdf.stat().st_size == 0:
        reason = (done.stderr or "").strip().splitlines()[-1:] or ["no PDF written"]
        raise PoundError(f"Chromium could not print {html} to PDF ({reason[0]})")
    return pdf


# Pages printed at once: most of a print is Chromium starting up, waiting rather than computing.
WORKERS = 2


def _print_many(pages: list[Path], extra: tuple[str, ...] = ()) -> list[Path]:
    browser = chromium()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        return list(pool.map(lambda p: print_pdf(p, p.with_suffix(".pdf"), browser, extra), pages))


def print_reports(pages: list[Path]) -> list[Path]:
    """Each report page to a PDF beside it."""
    return _print_many(pages, REPORT_ARGS)


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
    """Each page of each kind to PDF beside its HTML, then <kind>_all.pdf per kind; the paths written."""
    chromium()
    written: list[Path] = []
    for kind, pages in groups.items():
        pdfs = _print_many(pages)
        written.extend(pdfs)
        if pdfs:
            written.append(combine(pdfs, Path(out) / f"{kind}_all.pdf"))
    return written
