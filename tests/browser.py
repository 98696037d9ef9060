"""Headless Chromium for the tests, through playwright: every request is recorded and all
but file: and data: refused, so a page that reaches for the network is caught."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def opened(page, path_or_url, requests: list[str], charts: bool = True, wait_for: str | None = None):
    """(page, requests, page errors): `page` taken to `path_or_url`, every request it makes added to
    `requests` (refused or not: its context's route says), its script errors kept, waited for until
    loaded, its charts drawn (`charts`) and `wait_for` there, then a moment more."""
    page.on("request", lambda req: requests.append(req.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path_or_url.as_uri() if isinstance(path_or_url, Path) else path_or_url, wait_until="load")
    if charts:
        page.wait_for_selector(".main-svg", state="attached", timeout=15000)
    if wait_for:
        page.wait_for_selector(wait_for, state="attached", timeout=60000)
    page.wait_for_timeout(300)
    return page, requests, errors


class Browser:
    def __init__(self):
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self._browser = self._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception:
            self._pw.stop()
            raise

    def _offline(self, requests: list[str], context_args: dict | None = None):
        """A new context in which every request is recorded in `requests` and all but file:, data: and
        127.0.0.1 refused."""
        context = self._browser.new_context(**(context_args or {}))

        def route(r):
            requests.append(r.request.url)
            url = r.request.url
            if url.startswith(("file:", "data:", "http://127.0.0.1", "ws://127.0.0.1")):
                r.continue_()
            else:
                r.abort()

        context.route("**/*", route)
        return context

    def open(self, path_or_url, charts: bool = True, wait_for: str | None = None, context_args: dict | None = None):
        """(page, requests, page errors) of a page opened offline."""
        requests: list[str] = []
        context = self._offline(requests, context_args)
        return opened(context.new_page(), path_or_url, requests, charts, wait_for)

    def tab(self, context_args: dict | None = None):
        """A blank tab of a new offline context (as `open` makes one, its requests not asked of it), for a
        test to take to one static page after another (page.goto): close its context when done."""
        return self._offline([], context_args).new_page()

    def each_page(self, paths: list[Path]):
        """Static pages (no script to wait for: papers, an index) opened one after another in one tab of
        one offline context, as `open` opens a page but for the pause after it: yields (path, page),
        the tab at that page once loaded. A context and a tab for each paper cost about 0.3 CPU-s and
        the pause 0.3 s of a paper's 0.5 s."""
        page = self.tab()
        try:
            for path in paths:
                page.goto(path.as_uri(), wait_until="load")
                yield path, page
        finally:
            page.context.close()

    def close(self):
        self._browser.close()
        self._pw.stop()
