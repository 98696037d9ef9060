"""Fixtures of the report tests: the sample run once, its reports rendered for a busy month
and a quiet one, a database with two districts, the golden bundle's August, and a browser.

Each set of pages is rendered once for the whole session, by whichever test process asks first
(tests/shared.py), from the session's run of its bundle; the pages are read, never written."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from browser import opened
from helpers import REFERENCE, SAMPLE_BUNDLE, SYNTH_MONTH, case, load, make_bundle

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.read.database import connect
from pipeline.reports.render import REPORTS, render_reports

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_BUNDLE = ROOT / "tests" / "golden" / "bundle"


def render(db: Path, month: str, district, out: Path) -> dict[str, Path]:
    paths = render_reports(db, month, district, out)
    assert all(p.parent == out and p.stat().st_size > 0 for p in paths)
    return {name: p for (name, _), p in zip(REPORTS, paths, strict=True)}


def rendered(shared, bundle: Path, as_of: str, month: str, district) -> dict[str, Path]:
    """The pages of a month of a bundle's run, rendered once for the session (read only)."""
    db = shared.run_folder(bundle, as_of) / "pound.duckdb"
    folder = shared.once(f"pages-{bundle.name}-{as_of}-{month}-{district}", lambda out: render(db, month, district, out))
    pages = {name: sorted(folder.glob(f"{name}_{month}*.html")) for name, _ in REPORTS}
    assert all(len(p) == 1 for p in pages.values()), pages
    return {name: p[0] for name, p in pages.items()}


@pytest.fixture(scope="session")
def sample_db(shared) -> Path:
    return shared.run(SAMPLE_BUNDLE, "2026-11-30") / "pound.duckdb"


@pytest.fixture(scope="session")
def con(sample_db):
    c = connect(sample_db)
    yield c
    c.close()


@pytest.fixture(scope="session")
def october(shared) -> dict[str, Path]:
    return rendered(shared, SAMPLE_BUNDLE, "2026-11-30", "2026-10", None)


@pytest.fixture(scope="session")
def quiet_month(shared) -> dict[str, Path]:
    # a month with no activity, and the district written in lower case
    return rendered(shared, SAMPLE_BUNDLE, "2026-11-30", "2026-05", "mysuru")


@pytest.fixture(scope="session")
def golden_db(shared) -> Path:
    return shared.run(GOLDEN_BUNDLE, "2026-12-31") / "pound.duckdb"


@pytest.fixture(scope="session")
def golden_august(shared) -> dict[str, Path]:
    return rendered(shared, GOLDEN_BUNDLE, "2026-12-31", "2026-08", None)


@pytest.fixture(scope="session")
def two_districts(tmp_path_factory) -> Path:
    """A built database with a pound in Mysuru (P1) and one in Mandya (P2)."""
    root = tmp_path_factory.mktemp("two_districts")
    las = [dict(r) for r in REFERENCE["local_authorities"]]
    las[1]["district"] = "Mandya"
    pounds = [dict(r) for r in REFERENCE["pounds"]]
    pounds[1]["district"] = "Mandya"
    bundle = make_bundle(root / "bundle", local_authorities=las, pounds=pounds,
                         impoundments=[case("C1", "P1", "2026-10-03", head_count=2, owner_id="O1"),
                                       case("C2", "P2", "2026-10-05", head_count=3, owner_id="O2"),
                                       case("C3", "P2", "2026-10-20", head_count=1, owner_id="O2")])
    path = root / "pound.duckdb"
    c, result = load(bundle, path)
    assert not result.rejected
    build(c, Parameters({}, as_of=dt.date(2026, 11, 30)))
    c.close()
    return path

@pytest.fixture(scope="session")
def synthetic_db(shared) -> Path:
    """The database of a synthetic district's run (pound synth: 8 pounds, 6 months from March 2026,
    run as of 31-08-2026), made once for the session (read only)."""
    def make(folder: Path) -> None:
        from shared import quietly

        from pipeline.cli import main

        assert quietly(main, ["synth", "--out", str(folder / "bundle"), "--pounds", "8", "--months", "6",
                              "--cases-per-month", "25", "--seed", "11", "--start", "2026-03"])[0] == 0
        assert quietly(main, ["run", str(folder / "bundle"), "--out", str(folder / "out"),
                              "--as-of", "2026-08-31"])[0] == 0

    return shared.once("synthetic-district", make) / "out" / "pound.duckdb"


@pytest.fixture(scope="session")
def synthetic(shared, synthetic_db) -> dict[str, Path]:
    """The pages of a month of the synthetic district, rendered once for the session (read only),
    from its database where it stays (the pages name it)."""
    folder = shared.once("synthetic-district-pages", lambda out: render(synthetic_db, SYNTH_MONTH, None, out))
    return {name: folder / f"{name}_{SYNTH_MONTH}.html" for name, _ in REPORTS}


LAPTOP = {"viewport": {"width": 1280, "height": 800}}       # a laptop's screen


class Tabs:
    """Pages opened offline as browser.open opens them (tests/browser.py: every request recorded and
    all but file:, data: and 127.0.0.1 refused, the page's script errors kept, its charts drawn), but
    all in one browser context and one renderer process: each is a tab the context's first page (a
    blank page of its own) opens, so Chromium runs it in that page's process, where plotly.js is
    compiled once and not again for every page (about 2 of the 3 CPU-s a page took to open in a
    context of its own). A page a test opened is its own: close it (page.close(), not its context)."""

    def __init__(self, browser, folder: Path):
        context = browser.open(_home(folder), charts=False)[0].context    # a context of its own
        self._home = context.pages[0]

    def open(self, path_or_url, charts: bool = True, wait_for: str | None = None, viewport: dict | None = None):
        """(page, requests, page errors) of a page opened in a new tab, at `viewport` (the context's,
        playwright's 1280 x 720, when None)."""
        with self._home.context.expect_page() as opening:
            self._home.evaluate("() => { window.open(''); }")       # a blank tab of the home page's process
        page = opening.value
        if viewport:
            page.set_viewport_size(viewport)
        # every request of the context while the tab is open that is the tab's, as browser.open's route
        # records them: a popup's or a worker's too, which the tab's own request event (opened's list, set
        # aside) does not see; not another tab's (the session's tabs share the context, and on_screen's stay
        # open). A window's first request comes before its page is made: it is the tab's once the page is.
        requests: list[str] = []
        waiting: list = []
        context = self._home.context

        def record(request):
            made_in = _page_of(request)
            if made_in is None:
                if request.is_navigation_request():      # a new window's first page: its window not made yet
                    waiting.append(request)
                else:                                    # a service worker's: no frame
                    requests.append(request.url)
            elif _opened_from(made_in, page):
                requests.append(request.url)

        def window(made):
            for request in [r for r in waiting if _page_of(r) == made]:
                waiting.remove(request)
                if _opened_from(made, page):
                    requests.append(request.url)

        context.on("request", record)
        context.on("page", window)

        def closed(_):
            context.remove_listener("request", record)
            context.remove_listener("page", window)

        page.on("close", closed)
        page, _, errors = opened(page, path_or_url, [], charts, wait_for)
        return page, requests, errors

    def close(self):
        self._home.context.close()


def _page_of(request):
    """The page a request was made in; None for a service worker's, or a window's first request before
    its page is made."""
    try:
        return request.frame.page
    except Exception:
        return None


def _opened_from(page, tab) -> bool:
    """Whether a page is the tab, a window it opened, or one that window opened."""
    while page is not None:
        if page == tab:
            return True
        page = page.opener()
    return False


def _home(folder: Path) -> Path:
    page = folder / "home.html"
    page.write_text("<!DOCTYPE html><html><head><title>home</title></head><body></body></html>", encoding="utf-8")
    return page


@pytest.fixture(scope="session")
def tabs(browser, tmp_path_factory):
    """Tabs of one browser context for the session (in this test process)."""
    session_tabs = Tabs(browser, tmp_path_factory.mktemp("tabs"))
    yield session_tabs
    session_tabs.close()


@pytest.fixture(scope="session")
def on_screen(tabs):
    """on_screen(path) -> (page, requests, page errors): a rendered page opened in this test process
    at a laptop's 1280 x 800, its charts drawn, once for the session and kept open, so the tests that
    read the same page (test_browser, test_pages_a11y, test_light_pages: in xdist_group "on_screen",
    run by one process) open it once between them. Read only: a test that clicks, prints or turns JavaScript
    off opens a page of its own (tabs.open, browser.open). The requests and errors are all the page's so far."""
    kept: dict = {}

    def view(path: Path):
        if path not in kept:
            kept[path] = tabs.open(path, viewport=LAPTOP["viewport"])
        return kept[path]

    yield view
    for page, _, _ in kept.values():
        page.close()

