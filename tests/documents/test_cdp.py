"""Chromium's DevTools protocol on a pipe (documents/cdp.py): answers found however the pipe cuts
them, an error or a silence said as such, and no process or profile left behind.

Most tests talk to a stand-in browser, a small Python program that reads the commands from its
descriptor 3 and answers on 4 as Chromium does; the last prints a page in Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.core.errors import PoundError
from pipeline.documents import cdp, pdf

_STAND_IN = '''
import json, os, sys, time
mode = os.environ["STAND_IN_MODE"]
if mode == "exit":
    sys.exit(0)
if mode == "said":                        # says why on stderr, then goes
    print("a line of start-up noise", file=sys.stderr)
    print("FATAL: no room left for the renderer", file=sys.stderr, flush=True)
    sys.exit(1)
if mode == "child":                       # a process of its own it leaves running
    os.spawnlp(os.P_NOWAIT, "sleep", "sleep", "300")
if mode == "deaf":                        # reads nothing: a write to it fills the pipe and waits
    time.sleep(300)

def out(*messages):
    data = b"".join(json.dumps(m).encode() + b"\\0" for m in messages)
    half = len(data) // 2                 # the answers cut in two, a pause between
    os.write(4, data[:half]); time.sleep(0.05); os.write(4, data[half:])

buffer, reads, closed = b"", 0, None
while True:
    chunk = os.read(3, 65536)
    if not chunk:
        break
    buffer += chunk
    while b"\\0" in buffer:
        line, _, buffer = buffer.partition(b"\\0")
        m = json.loads(line)
        if mode in ("silent", "child"):
            continue
        if m["method"] == "Browser.close":
            sys.exit(0)
        if mode == "error":
            out({"id": m["id"], "error": {"code": -32000, "message": "No target with given id found"}})
            continue
        if mode == "crash" and m.get("sessionId") != "S1":       # S1 crashes while another is answered
            out({"method": "Inspector.targetCrashed", "sessionId": "S1", "params": {}})
        if mode == "fds":                         # the descriptors it was given
            out({"id": m["id"], "result": {"fds": sorted(int(n) for n in os.listdir("/proc/self/fd"))}})
            continue
        if m["method"] == "Page.printToPDF":     # the PDF as a stream, read in two pieces
            out({"id": m["id"], "result": {"stream": "H1"}})
            continue
        if m["method"] == "IO.read":
            reads += 1
            piece = {"data": "JVBERi0xLjQg", "base64Encoded": True, "eof": False} if reads == 1 else \
                {"data": "the rest", "eof": True}
            out({"id": m["id"], "result": piece})
            continue
        if m["method"] == "IO.close":
            closed = m["params"]["handle"]
        # an event first, then the answer, large enough to come in many reads
        out({"method": "Page.loadEventFired", "sessionId": "S1", "params": {}},
            {"id": m["id"], "result": {"method": m["method"], "args": sys.argv[1:], "big": "x" * 300000,
                                       "closed": closed}})
'''


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    """stand_in(mode) -> the path of a stand-in browser that behaves as `mode` says."""
    path = tmp_path / "chromium"
    path.write_text(f"#!{sys.executable}\n{_STAND_IN}")
    path.chmod(0o755)
    monkeypatch.setattr(cdp, "CLOSE_WAIT", 0.5)

    def make(mode: str) -> str:
        monkeypatch.setenv("STAND_IN_MODE", mode)
        return str(path)

    return make


def _gone(browser: cdp.Chromium) -> bool:
    """No process left in the browser's session (a killed child of it is reaped by init in its own
    time: a few seconds allowed), and its profile folder removed."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(browser.pid, 0)
        except ProcessLookupError:
            return not Path(browser.profile).exists()
        time.sleep(0.05)
    return False


def test_an_answer_is_found_after_an_event_and_across_many_reads(stand_in):
    with cdp.Chromium(stand_in("answer"), ["--one"]) as browser:
        said = browser.send("Page.enable", session="S1")
        assert said["method"] == "Page.enable" and len(said["big"]) == 300000
        assert "--one" in said["args"] and "--remote-debugging-pipe" in said["args"]
        assert any(a.startswith("--user-data-dir=") for a in said["args"])
        # the event that came before the answer is kept for whoever waits for it
        assert browser.wait_for("Page.loadEventFired", "S1", timeout=1)["sessionId"] == "S1"
        assert browser.send("Page.disable", session="S1")["method"] == "Page.disable"
    assert _gone(browser)


def test_an_error_answer_is_said_with_the_command(stand_in):
    with cdp.Chromium(stand_in("error"), []) as browser, \
            pytest.raises(cdp.ProtocolError, match="Target.closeTarget: No target with given id found"):
        browser.send("Target.closeTarget", {"targetId": "T9"})
    assert _gone(browser)


def test_a_browser_that_says_nothing_is_given_up_on_and_stopped_with_what_it_started(stand_in):
    with cdp.Chromium(stand_in("child"), []) as browser, \
            pytest.raises(cdp.ProtocolError, match="did not answer in time"):
        browser.send("Page.enable", timeout=0.3)
    # it never answered Browser.close: its whole session (the sleep it started too) was killed
    assert _gone(browser)


def test_a_browser_that_has_gone_is_said_to_have_gone(stand_in):
    with cdp.Chromium(stand_in("exit"), []) as browser, pytest.raises(cdp.ProtocolError, match="Chromium is gone"):
        browser.send("Target.createTarget", {"url": "about:blank"}, timeout=5)
    assert _gone(browser)


def test_a_browser_that_has_gone_is_said_to_have_gone_with_its_last_words(stand_in):
    with cdp.Chromium(stand_in("said"), []) as browser, pytest.raises(cdp.ProtocolError) as said:
        browser.send("Target.createTarget", {"url": "about:blank"}, timeout=5)
    assert str(said.value) == ("Chromium is gone; it said: a line of start-up noise | "
                               "FATAL: no room left for the renderer")
    assert not Path(browser.profile).exists()


def test_a_browser_that_cannot_be_started_is_named_and_leaves_no_profile(tmp_path, monkeypatch):
    made = []
    real = cdp.tempfile.mkdtemp
    monkeypatch.setattr(cdp.tempfile, "mkdtemp", lambda **kw: made.append(real(**kw)) or made[-1])
    with pytest.raises(PoundError, match=r"Chromium \(.*no-such-chromium\) could not be started"):
        pdf._print_batch([(tmp_path / "a.html", tmp_path / "a.pdf")], report=False,
                         browser=str(tmp_path / "no-such-chromium"))
    assert made and not any(Path(p).exists() for p in made)


@pytest.mark.browser
def test_a_batch_in_chromium_leaves_no_process_or_profile(tmp_path, monkeypatch):
    if not pdf.DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")
    browsers = []
    real = cdp.Chromium.__init__

    def kept(self, *a, **kw):
        real(self, *a, **kw)
        browsers.append(self)

    monkeypatch.setattr(cdp.Chromium, "__init__", kept)
    page = tmp_path / "paper.html"
    page.write_text("<!doctype html><html lang=en><meta charset=utf-8><style>@page { size: A4 }</style>"
                    "<p>Receipt 7 of Rs 1,250.00</p></html>")
    assert pdf._print_batch([(page, tmp_path / "paper.pdf")], report=False) == [tmp_path / "paper.pdf"]
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "paper.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Receipt 7 of Rs 1,250.00" in text
    assert len(browsers) == 1 and _gone(browsers[0])


def test_a_browser_gone_before_the_first_page_fails_the_batch_naming_the_page(stand_in, tmp_path):
    page = tmp_path / "paper.html"
    page.write_text("<p>paper</p>")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF the earlier print")
    with pytest.raises(PoundError, match=r"could not print .*paper.html to PDF \(Chromium is gone\)"):
        pdf._print_batch([(page, tmp_path / "paper.pdf")], report=False, browser=stand_in("exit"))
    assert (tmp_path / "paper.pdf").read_bytes() == b"%PDF the earlier print"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chromium", "paper.html", "paper.pdf"]


def test_a_pdf_is_read_back_from_its_stream_piece_by_piece_and_the_stream_closed(stand_in):
    with cdp.Chromium(stand_in("answer"), []) as browser:
        tab = cdp.Tab(browser, "T1", "S1")
        assert tab.pdf(prefer_css_page_size=True) == b"%PDF-1.4 the rest"
        assert browser.send("Page.enable", session="S1")["closed"] == "H1"


_GENERIC = ("<!doctype html><html lang=en><meta charset=utf-8><title>generic</title><style>@page { size: A4 }"
            " body { font-family: sans-serif } pre { font-family: monospace } .wide { width: 100vw;"
            " background: #ddd } p.serif { font-family: serif }</style><body><div class=wide>as wide as the"
            " window</div><p>Plain words in the default sans-serif.</p><p class=serif>And in the serif.</p>"
            "<pre>R 1,250.00</pre></body></html>")


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.browser
def test_a_report_page_is_laid_out_as_wide_as_under_playwright(browser, tmp_path):
    # a report's charts draw themselves at the window's width as the page loads: a page taller than the
    # window writes the width its body was given, printed by pdf.py (700 px wide, from its file) and by
    # playwright in a context of the same size; a scrollbar would take 15 px of it
    page = tmp_path / "report.html"
    page.write_text("<!doctype html><html lang=en><meta charset=utf-8><title>r</title><style>@page { size: A4 }"
                    " .tall { height: 3000px }</style><body><p id=w></p><div class=tall></div><script>"
                    "document.getElementById('w').textContent = 'laid out ' + document.body.clientWidth + ' px wide';"
                    "</script></body></html>", encoding="utf-8")
    (mine,) = pdf._print_batch([(page, tmp_path / "ours.pdf")], report=True)
    context = browser._browser.new_context(viewport=pdf.REPORT_VIEWPORT)
    try:
        tab = context.new_page()
        tab.goto(page.as_uri(), wait_until="load")
        (tmp_path / "theirs.pdf").write_bytes(tab.pdf(prefer_css_page_size=True))
    finally:
        context.close()
    ours, theirs = _pdf_text(mine), _pdf_text(tmp_path / "theirs.pdf")
    assert "laid out 684 px wide" in ours and ours == theirs          # 700 px less the body's margins


@pytest.mark.browser
def test_papers_print_as_playwright_printed_them(sample_papers, browser, tmp_path):
    # cdp.py starts Chromium with the switches playwright gave it that a page could show (no
    # scrollbars, the default fonts, sRGB...): a paper of each of three kinds, and a page naming only
    # generic font families with a box as wide as the window, print to the same text and pixels both ways
    papers = sorted(p for p in sample_papers.glob("*.html") if p.name != "index.html")
    kinds = {p.name.split("_20")[0].rsplit("_", 1)[0]: p for p in papers}
    pages = [*list(kinds.values())[:3], tmp_path / "generic.html"]
    pages[-1].write_text(_GENERIC, encoding="utf-8")
    ours = pdf._print_batch([(p, tmp_path / f"ours_{p.stem}.pdf") for p in pages], report=False)
    context = browser._browser.new_context()            # playwright's default viewport, as pdf.py had
    try:
        tab = context.new_page()
        for page, mine in zip(pages, ours, strict=True):
            tab.set_content(page.read_text(encoding="utf-8"), wait_until="load")
            tab.evaluate("document.fonts.ready.then(() => true)")
            theirs = tmp_path / f"theirs_{page.stem}.pdf"
            theirs.write_bytes(tab.pdf(prefer_css_page_size=True))
            text = [_pdf_text(f) for f in (mine, theirs)]
            assert text[0] == text[1] and text[0].strip(), page.name
            # untagged, as playwright asks (a tagged paper of tables is four times the size)
            assert [b"/StructTreeRoot" in f.read_bytes() for f in (mine, theirs)] == [False, False], page.name
            for f in (mine, theirs):
                subprocess.run(["pdftoppm", "-r", "30", "-png", str(f), str(f.with_suffix(""))], check=True)
            pngs = [sorted(tmp_path.glob(f"{w}_{page.stem}*.png")) for w in ("ours", "theirs")]
            assert len(pngs[0]) == len(pngs[1]) > 0, page.name
            assert [p.read_bytes() for p in pngs[0]] == [p.read_bytes() for p in pngs[1]], page.name
    finally:
        context.close()


def test_a_profile_left_by_a_process_killed_while_printing_is_removed_at_the_next_start(stand_in, tmp_path, monkeypatch):
    monkeypatch.setattr(cdp.tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen(["true"])
    gone.wait()                                             # a process that has ended: its pid is free
    left = tmp_path / f"{cdp.PROFILE_PREFIX}{gone.pid}-x1"
    mine = tmp_path / f"{cdp.PROFILE_PREFIX}{os.getpid()}-x2"          # a live process's: kept
    other = tmp_path / "pound-chromium-notapid-x3"
    # of a process of that number gone here, but touched within the hour: perhaps alive elsewhere
    # (another container sharing the folder): kept
    recent = tmp_path / f"{cdp.PROFILE_PREFIX}{gone.pid}-x4"
    hours_ago = time.time() - 2 * cdp.LEFT_AFTER
    for folder in (left, mine, other, recent):
        (folder / "Default").mkdir(parents=True)
        if folder is not recent:
            os.utime(folder, (hours_ago, hours_ago))
    with cdp.Chromium(stand_in("answer"), []) as browser:
        assert Path(browser.profile).parent == tmp_path and Path(browser.profile).name.startswith(
            f"{cdp.PROFILE_PREFIX}{os.getpid()}-")
        assert not left.exists() and mine.exists() and other.exists() and recent.exists()
    assert _gone(browser)


def test_a_command_chromium_does_not_read_is_given_up_on_in_time(stand_in):
    started = time.monotonic()
    with cdp.Chromium(stand_in("deaf"), []) as browser, \
            pytest.raises(cdp.ProtocolError, match="did not take a command in time"):
        browser.send("Runtime.evaluate", {"expression": "x" * 300_000}, timeout=0.5)   # more than a pipe holds
    assert time.monotonic() - started < 10 and _gone(browser)


def test_a_tab_s_crash_said_while_another_command_was_awaited_fails_its_next_command_at_once(stand_in):
    with cdp.Chromium(stand_in("crash"), []) as browser:
        browser.send("Target.getTargets")                  # the crash of S1 comes before this answer
        started = time.monotonic()
        with pytest.raises(cdp.ProtocolError, match="Target crashed"):
            browser.send("Page.navigate", {"url": "about:blank"}, session="S1", timeout=20)
        assert time.monotonic() - started < 2
    assert _gone(browser)


def test_chromium_is_given_its_two_pipes_and_no_other_descriptor_of_this_process(stand_in):
    read_end, write_end = os.pipe()
    os.set_inheritable(read_end, True)                  # as a jobserver's pipe or a service's socket
    try:
        with cdp.Chromium(stand_in("fds"), []) as browser:
            given = browser.send("Target.getTargets")["fds"]
        assert read_end not in given and {0, 1, 2, 3, 4} <= set(given)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert _gone(browser)


def test_with_over_a_thousand_descriptors_open_a_batch_still_prints(stand_in):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("the process may not open 1,200 files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]      # the pipes come above 1,024
    try:
        with cdp.Chromium(stand_in("answer"), []) as browser:
            assert browser.send("Page.enable", session="S1")["method"] == "Page.enable"
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert _gone(browser)


def test_a_close_interrupted_still_stops_chromium_and_removes_its_profile(stand_in, monkeypatch):
    browser = cdp.Chromium(stand_in("silent"), [])
    real = cdp.Chromium.send

    def interrupted(self, method, *a, **kw):
        if method == "Browser.close":
            raise KeyboardInterrupt          # a second Ctrl-C while the browser is asked to close
        return real(self, method, *a, **kw)

    monkeypatch.setattr(cdp.Chromium, "send", interrupted)
    with pytest.raises(KeyboardInterrupt):
        browser.close()
    assert _gone(browser)
