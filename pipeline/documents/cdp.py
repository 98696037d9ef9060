"""Chromium driven over its DevTools protocol, through a pipe: the few calls printing needs.

Chromium started with --remote-debugging-pipe reads protocol commands (JSON, each ended by a NUL
byte) from its file descriptor 3 and writes the answers and events to its descriptor 4; the
protocol (https://chromedevtools.github.io/devtools-protocol/) is Chromium's own public door, the
one playwright drives too. Playwright reaches it through a Node.js driver of its own: a process
started for every batch, about 0.4 CPU s before a page is printed, and every page's PDF passed
through it (docs/benchmarks.md, issue 52). Here this process writes to the pipe itself.

`Chromium` is the browser, one per batch; `Chromium.new_page()` gives a `Tab` with the calls of a
playwright page that documents/pdf.py uses (goto, set_content, wait_for_function, evaluate, pdf,
close), made as playwright makes them: a page's content written with document.write, `load` awaited,
and the PDF asked for with playwright's defaults for whatever the caller does not give (untagged).

What it holds to, whatever happens half-way: a write or an answer waited for no longer than asked
(poll, which any descriptor number suits); a tab's crash said as soon as it is seen; Chromium given
its two pipes and no other descriptor of this process; and a close, even one interrupted, leaves no
process of Chromium's session and no profile folder (tests/documents/test_cdp.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import tempfile
import time
from pathlib import Path

# playwright's Page.pdf defaults: US Letter, no margins, no background, scale 1; a page's own
# @page size stands where preferCSSPageSize is asked for
PDF_DEFAULTS = {"landscape": False, "displayHeaderFooter": False, "printBackground": False, "scale": 1,
                "paperWidth": 8.5, "paperHeight": 11, "marginTop": 0, "marginBottom": 0, "marginLeft": 0,
                "marginRight": 0, "pageRanges": "", "preferCSSPageSize": False,
                # untagged and without an outline, as playwright asks: Chromium would otherwise tag the
                # PDF (a structure tree: a table's paper four times the size)
                "generateTaggedPDF": False, "generateDocumentOutline": False}
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}        # playwright's, where a context gives none
# what playwright gives a headless Chromium it starts, that a printed page could show: no scrollbars
# (a page 700 px wide lays out 700 px of content), sRGB, no hover or fine pointer, and the default
# fonts it sets on Linux for a page that names only a generic family; and what it turns off that a
# browser printing a batch has no use for (extensions, a crash reporter, field trials, work put off
# for tabs in the background)
HEADLESS_ARGS = ("--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb", "--no-startup-window",
                 "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4",
                 "--disable-extensions", "--disable-component-extensions-with-background-pages", "--disable-default-apps",
                 "--disable-breakpad", "--disable-field-trial-config", "--disable-background-timer-throttling",
                 "--disable-backgrounding-occluded-windows", "--disable-renderer-backgrounding", "--disable-hang-monitor",
                 "--disable-dev-shm-usage", "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
                 "--no-default-browser-check", "--disable-back-forward-cache",
                 "--disable-features=PaintHolding,OptimizationHints,MediaRouter,LensOverlay,NetworkTimeServiceQuerying,"
                 "DestroyProfileOnBrowserClose,HttpsUpgrades")
FONT_FAMILIES = {"standard": "Times New Roman", "fixed": "Monospace", "serif": "Times New Roman",
                 "sansSerif": "Arial", "cursive": "Comic Sans MS", "fantasy": "Impact"}
KEPT_EVENTS = ("Page.loadEventFired", "Inspector.targetCrashed")
CLOSE_WAIT = 5.0                                          # s for Chromium to exit once asked
SAID_LINES = 3                                            # of its stderr said when Chromium is gone


PROFILE_PREFIX = "pound-chromium-"                       # + the pid of the process printing, -, random


LEFT_AFTER = 3600                  # s a profile folder has stood untouched before it can be left


def clear_left_profiles() -> None:
    """The profiles in the temporary folder of processes that are gone (killed while printing: Chromium
    itself ends when its pipe closes, but the folder stays), removed once they have stood an hour
    untouched: a process of that number may be alive elsewhere (another container sharing /tmp)."""
    now = time.time()
    for left in Path(tempfile.gettempdir()).glob(f"{PROFILE_PREFIX}*-*"):
        pid = left.name[len(PROFILE_PREFIX):].split("-", 1)[0]
        try:
            stale = now - left.stat().st_mtime > LEFT_AFTER
        except OSError:
            continue
        if pid.isdigit() and stale and not _alive(int(pid)):
            shutil.rmtree(left, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # another user's
        return True
    return True


class ProtocolError(RuntimeError):
    """Chromium answered a command with an error, crashed, went away, or did not answer in time."""


def _inherited(fd: int, at: int) -> tuple:
    # posix_spawn's file action: `fd` made descriptor `at` in the child, without close-on-exec
    return (os.POSIX_SPAWN_DUP2, fd, at)


def _not_given() -> list[tuple]:
    """posix_spawn's file actions closing, in the child, every descriptor this process would
    otherwise hand Chromium (those without close-on-exec, beyond the standard three): subprocess's
    close_fds, which posix_spawn lacks."""
    try:
        numbers = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        numbers = list(range(3, 256))
    out = []
    for fd in numbers:
        try:
            if fd > 2 and os.get_inheritable(fd):
                out.append((os.POSIX_SPAWN_CLOSE, fd))
        except OSError:                 # closed since (the listing's own, or another thread's)
            pass
    return out


class Chromium:
    """One headless Chromium, its DevTools protocol on a pipe; a context manager that closes it."""

    def __init__(self, executable: str, args: list[str] | tuple[str, ...], viewport: dict | None = None):
        self.viewport = viewport or DEFAULT_VIEWPORT
        self._partial: list[bytes] = []     # the pieces of the message not yet ended
        self._messages: list[bytes] = []    # messages read whole, not yet given
        self._next = 0
        self._events: list[dict] = []
        self._closed = False
        # a profile of its own, as playwright gives each browser: two printing at once never meet in
        # one profile (Chromium hands a second start on a profile to the first); named by this
        # process, so that the profile of one killed before it could remove it is found and removed
        clear_left_profiles()
        self.profile = tempfile.mkdtemp(prefix=f"{PROFILE_PREFIX}{os.getpid()}-")
        self._said = os.path.join(self.profile, "stderr.txt")
        mine: list[int] = []                # this process's ends of the two pipes
        theirs: list[int] = []              # Chromium's ends, closed here once it has them
        try:
            to_child, commands = os.pipe()
            theirs.append(to_child)
            mine.append(commands)
            answers, from_child = os.pipe()
            mine.append(answers)
            theirs.append(from_child)
            # above the descriptors the child is given (3 and 4), so that a dup2 never meets itself
            high = []
            for fd in (to_child, from_child):
                high.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
                theirs.append(high[-1])
            os.set_blocking(commands, False)            # a write waits for Chromium no longer than asked
            self._commands, self._answers = commands, answers
            self._out, self._in = select.poll(), select.poll()
            self._out.register(commands, select.POLLOUT)
            self._in.register(answers, select.POLLIN)
            devnull = (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)
            # what Chromium says on stderr kept in its profile, to name why it went (_gone_error)
            quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                     (os.POSIX_SPAWN_OPEN, 2, self._said, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)]
            # posix_spawn, not subprocess with preexec_fn: safe in the desk's threads; a session of
            # its own, so that Chromium and every process it starts are stopped together (_stop); no
            # descriptor of this process's but its two pipes (_not_given)
            self.pid = os.posix_spawn(executable, [executable, "--headless", *HEADLESS_ARGS, *args,
                                                   f"--user-data-dir={self.profile}", "--remote-debugging-pipe"],
                                      os.environ, setsid=True,
                                      file_actions=[*_not_given(), devnull, *quiet, _inherited(high[0], 3),
                                                    _inherited(high[1], 4)])
        except BaseException:
            for fd in mine:
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        finally:
            for fd in theirs:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    # -- the protocol
    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 60.0) -> dict:
        """A command, and its answer's result; ProtocolError if it is an error or does not come."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        wanted, deadline = self._next, time.monotonic() + timeout
        self._write(json.dumps(message).encode() + b"\0", deadline)
        while True:
            self._crashed(session)
            answer = self._read(deadline, session)
            if answer.get("id") == wanted:
                if "error" in answer:
                    raise ProtocolError(f"{method}: {answer['error'].get('message', answer['error'])}")
                return answer.get("result", {})
            self._keep(answer)

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._commands, view):]
                continue
            except BlockingIOError:
                pass
            except OSError as exc:
                raise self._gone_error() from exc
            left = deadline - time.monotonic()
            if left <= 0 or not self._out.poll(left * 1000):
                raise ProtocolError("Chromium did not take a command in time")

    def _crashed(self, session: str | None) -> None:
        """ProtocolError when the tab's crash has been said, even while another command was awaited."""
        if session and any(m.get("method") == "Inspector.targetCrashed" and m.get("sessionId") == session
                           for m in self._events):
            raise ProtocolError("Target crashed")

    def wait_for(self, event: str, session: str, timeout: float) -> dict:
        """The next event of that name from that tab (one already come, first)."""
        self._crashed(session)
        for i, message in enumerate(self._events):
            if message.get("method") == event and message.get("sessionId") == session:
                return self._events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            message = self._read(deadline, session)
            if message.get("method") == event and message.get("sessionId") == session:
                return message
            self._keep(message)

    def _keep(self, message: dict) -> None:
        """An event come while another thing was awaited, kept if it is one waited for (a page's load,
        a tab's crash); the rest (a page's frames starting and stopping) dropped, so that a batch of
        hundreds of papers keeps no more than a few."""
        if message.get("method") in KEPT_EVENTS:
            self._events.append(message)

    def forget(self, session: str) -> None:
        """The events of a tab come so far, dropped (before it loads something new)."""
        self._events = [m for m in self._events if m.get("sessionId") != session]

    def _read(self, deadline: float, session: str | None) -> dict:
        while not self._messages:
            left = deadline - time.monotonic()
            if left <= 0 or not self._in.poll(left * 1000):
                raise ProtocolError("Chromium did not answer in time")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise self._gone_error()
            # a message (a report's PDF is megabytes of it) comes in many pieces: each piece is
            # looked through once for the NUL that ends one, and joined once
            *ended, rest = chunk.split(b"\0")
            for piece in ended:
                self._partial.append(piece)
                self._messages.append(b"".join(self._partial))
                self._partial = []
            self._partial.append(rest)
        message = json.loads(self._messages.pop(0))
        if message.get("method") == "Inspector.targetCrashed" and session and message.get("sessionId") == session:
            raise ProtocolError("Target crashed")
        return message

    def _gone_error(self) -> ProtocolError:
        """"Chromium is gone", with the last lines it wrote to stderr (why it went, as far as it said)."""
        try:
            with open(self._said, "rb") as fh:
                fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
                lines = [ln.strip() for ln in fh.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        except OSError:
            lines = []
        said = " | ".join(ln[:200] for ln in lines[-SAID_LINES:])
        return ProtocolError(f"Chromium is gone; it said: {said}" if said else "Chromium is gone")

    # -- tabs
    def new_page(self) -> Tab:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(self, target, session)
        self.send("Page.enable", session=session)
        width, height = self.viewport["width"], self.viewport["height"]
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False, "screenWidth": width,
            "screenHeight": height, "screenOrientation": {"angle": 0, "type": "landscapePrimary"}}, session=session)
        self.send("Page.setFontFamilies", {"fontFamilies": FONT_FAMILIES}, session=session)
        return tab

    def close(self) -> None:
        """Chromium asked to close, stopped if it does not, its pipes closed and its profile removed,
        whatever interrupts it (a second Ctrl-C, the desk stopping)."""
        if self._closed:
            return
        self._closed = True
        try:
            with contextlib.suppress(ProtocolError):
                self.send("Browser.close", timeout=CLOSE_WAIT)
        finally:
            try:
                self._stop()
            finally:
                for fd in (self._commands, self._answers):
                    with contextlib.suppress(OSError):
                        os.close(fd)
                shutil.rmtree(self.profile, ignore_errors=True)

    def _stop(self) -> None:
        """Chromium's exit awaited for CLOSE_WAIT seconds, else it is killed; then what is left of its
        session killed, and it reaped. Its exit is seen without reaping it (WNOWAIT), so that its number
        is not free to another process while the session is killed."""
        deadline = time.monotonic() + CLOSE_WAIT
        while time.monotonic() < deadline and not _ended(self.pid):
            time.sleep(0.02)
        with contextlib.suppress(OSError):      # Chromium, if it is still running, and all it started
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _ended(pid: int) -> bool:
    """Whether the child has exited (it stays to be reaped)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


# `load` awaited, then the fonts: a page whose load has already fired answers at once
_LOADED = ("new Promise(r => document.readyState === 'complete' ? r() : addEventListener('load', () => r(), "
           "{once: true}))")


class Tab:
    """One tab of a Chromium: the calls of a playwright Page that printing uses, timeouts in ms."""

    def __init__(self, browser: Chromium, target: str, session: str):
        self.browser, self.target, self.session = browser, target, session

    def _send(self, method: str, params: dict | None = None, timeout: float = 60.0) -> dict:
        return self.browser.send(method, params, self.session, timeout)

    def goto(self, url: str, wait_until: str = "load", timeout: float = 30_000) -> None:
        self.browser.forget(self.session)
        went = self._send("Page.navigate", {"url": url}, timeout / 1000)
        if went.get("errorText"):
            raise ProtocolError(f"{went['errorText']} at {url}")
        self.browser.wait_for("Page.loadEventFired", self.session, timeout / 1000)

    def set_content(self, html: str, wait_until: str = "load", timeout: float = 30_000) -> None:
        # as playwright sets a page's content: the document written anew, then its `load` awaited
        self._evaluate("(html => { window.stop(); document.open(); document.write(html); document.close(); })("
                       + json.dumps(html) + ")", timeout)
        self._evaluate(_LOADED, timeout)

    def wait_for_function(self, function: str, timeout: float = 30_000) -> None:
        """`function` (a JavaScript function, as text) called until it gives a true value."""
        self._evaluate(f"new Promise((ok, no) => {{ const f = {function}, end = Date.now() + {int(timeout)}; "
                       "(function poll() { let v; try { v = f(); } catch (e) { no(e); return; } "
                       "if (v) ok(true); else if (Date.now() > end) no(new Error('timed out')); "
                       "else requestAnimationFrame(poll); })(); })", timeout + 1000)

    def evaluate(self, expression: str):
        return self._evaluate(expression, 30_000)

    def _evaluate(self, expression: str, timeout: float):
        said = self._send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                          timeout / 1000)
        if "exceptionDetails" in said:
            details = said["exceptionDetails"]
            raise ProtocolError(details.get("exception", {}).get("description") or details.get("text", "error"))
        return said.get("result", {}).get("value")

    def pdf(self, prefer_css_page_size: bool = False, timeout: float = 120_000) -> bytes:
        """The page printed, read back as a stream in pieces (as playwright reads it): a report's
        PDF of many megabytes never one message."""
        import base64

        printed = self._send("Page.printToPDF", {**PDF_DEFAULTS, "preferCSSPageSize": prefer_css_page_size,
                                                 "transferMode": "ReturnAsStream"}, timeout / 1000)
        handle, pieces = printed["stream"], []
        try:
            while True:
                piece = self._send("IO.read", {"handle": handle, "size": 1 << 20}, timeout / 1000)
                data = piece.get("data", "")
                pieces.append(base64.b64decode(data) if piece.get("base64Encoded") else data.encode("latin-1"))
                if piece.get("eof"):
                    return b"".join(pieces)
        finally:
            with contextlib.suppress(ProtocolError):
                self._send("IO.close", {"handle": handle}, CLOSE_WAIT)

    def close(self) -> None:
        with contextlib.suppress(ProtocolError):
            self.browser.send("Target.closeTarget", {"targetId": self.target}, timeout=CLOSE_WAIT)
