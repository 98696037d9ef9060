"""The desk's web layer (Flask): one page for the office's month, its forms, and the guards.

Guards, in the order a request meets them: the Host header must be the desk's own (DNS
rebinding); with a password file (needed to listen beyond 127.0.0.1) every request must carry
the password (HTTP basic authentication); a request that changes anything must carry a token the
page was given and, when the browser says where it comes from, come from the desk's own origin;
bodies are bounded (MAX_CONTENT_LENGTH). One action runs at a time (Desk.lock): a second is told
that the database is busy. The month's steps are reached only through actions.py.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, abort, redirect, render_template, request, send_file, send_from_directory, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from pipeline.core.errors import DatabaseBusy, InputRejected, PoundError
from pipeline.core.locks import holding
from pipeline.desk import actions, hosts, offered, upload
from pipeline.desk.throttle import Throttle

ACTIONS = {   # the form's action: the button's name, and what the page calls it while it runs
    "load": "Load the registers",
    "review": "Make the month's review",
    "close": "Close the month",
    "verify": "Verify",
    "papers": "Make the papers",
    "reopen": "Reopen the month",
}
PAGE = "the desk's page"   # who holds the database while the page reads it, a moment
TOKENS_KEPT = 256          # the tokens of the pages served last; an older page is asked to reload


@dataclass
class Job:
    action: str
    month: str
    started: float = field(default_factory=time.monotonic)
    step: str = "starting"
    finished: float | None = None
    result: object = None
    error: str | None = None
    rejects: list = field(default_factory=list)


class Desk:
    """The desk's state between requests: its places, the job running or last run, the page tokens."""

    def __init__(self, places: actions.Places, password: str | None = None, allowed_hosts: set[str] | None = None):
        self.places = places
        self.password = password
        self.allowed_hosts = allowed_hosts or set()
        self.lock = threading.Lock()
        self.job: Job | None = None
        self.tokens: deque[str] = deque(maxlen=TOKENS_KEPT)
        self.note: str | None = None             # the last upload's line
        self.thread: threading.Thread | None = None
        self.seen: dict[str, tuple] = {}          # month: (state, months), as read when no action ran
        self.choices: list[str] | None = None    # the months, as read last
        self.said: OrderedDict[str, str] = OrderedDict()   # refusals shown after a redirect, by key

    def say(self, text: str) -> str:
        """Keep a refusal for the page the browser is sent to (a reload then posts nothing again)."""
        key = secrets.token_urlsafe(8)
        self.said[key] = text
        while len(self.said) > TOKENS_KEPT:
            self.said.popitem(last=False)
        return key

    def looked(self, month: str) -> tuple:
        """The month's state and the months to choose from. The database is read holding its lock
        (core/locks.py) without waiting: never while an action holds it (DuckDB refuses a second
        connection of another kind in one process, and the action must not meet one), nor while a
        `pound` command does; the page then shows what was last read."""
        try:
            with holding(self.places.db, wait=0, what=PAGE):
                self.seen[month] = (actions.state(self.places, month), actions.months(self.places))
                self.choices = self.seen[month][1]
        except DatabaseBusy as exc:
            if month not in self.seen:
                return (actions.State(month, "busy", f"being worked on by {exc.holder or 'another program'}",
                                      "wait for it to finish"), self.months())
        except PoundError as exc:                # the lock file cannot be had (a link in its place)
            return (actions.State(month, "error", "its state cannot be read", "correct what is named above, then "
                                  "show the month again", problem=str(exc)), self.months())
        return self.seen[month]

    def months(self) -> list[str]:
        """The months to choose from, read as looked() reads (the last read while the database is held)."""
        try:
            with holding(self.places.db, wait=0, what=PAGE):
                self.choices = actions.months(self.places)
        except PoundError:                       # busy (DatabaseBusy), or the lock file cannot be had
            if self.choices is None:
                return actions.months(self.places, read=False)
        return self.choices

    def token(self) -> str:
        t = secrets.token_urlsafe(24)
        self.tokens.append(t)
        return t

    def token_ok(self, given: str | None) -> bool:
        return bool(given) and any(hmac.compare_digest(given, t) for t in list(self.tokens))

    def busy(self) -> bool:
        return self.lock.locked()

    def start(self, action: str, month: str, **kw) -> bool:
        """Run an action in the background, holding the database for the whole of it (core/locks.py);
        False when another action is running. An action that finds a `pound` command holding the
        database for actions.DB_WAIT seconds ends at once: "the database is busy: <who> is using it"."""
        if not self.lock.acquire(timeout=2):         # another action is running, or just ending
            return False
        job = Job(action, month)
        self.job = job

        def tell(text: str) -> None:
            job.step = text

        def run() -> None:
            try:
                # the database held for the whole action, its child processes too (the review's kernels)
                with holding(self.places.db, wait=actions.DB_WAIT, what=f"the desk's \"{ACTIONS.get(action, action)}\""):
                    job.result = _run(self.places, action, month, actions.Steps(tell), **kw)
            except InputRejected as exc:
                job.error = "the file was refused; nothing from it was loaded"
                job.rejects = [actions.Reject(p.file, p.row, p.column, p.message) for p in exc.problems]
            except PoundError as exc:
                job.error = _busy_words(exc) or str(exc)
            except Exception as exc:  # a defect: one line on the page, the traceback on the desk's terminal
                job.error = _busy_words(exc) or f"failed: {exc.__class__.__name__}: {exc}"
                if not _busy_words(exc):
                    import traceback

                    traceback.print_exc()
            finally:
                if kw.get("signed"):                  # the scan sent, kept only where the close put it
                    kw["signed"].unlink(missing_ok=True)
                job.finished = time.monotonic()
                self.lock.release()

        self.thread = threading.Thread(target=run, name=f"desk-{action}", daemon=True)
        self.thread.start()
        return True

    def wait(self, timeout: float = 600) -> Job | None:
        """The job, once it has finished (for tests and for the command's shutdown)."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.job


def _busy_words(exc: BaseException) -> str | None:
    if isinstance(exc, DatabaseBusy):
        return (f"the database is busy: {exc.holder or 'another program (a `pound` command?)'} is using it; "
                "try again when it has finished")
    return None


def _run(places: actions.Places, action: str, month: str, progress, **kw):
    if action == "load":
        return actions.load(places, month, progress)
    if action == "review":
        return actions.review(places, month, progress)
    if action == "close":
        return actions.close(places, month, kw.get("by", ""), kw.get("note"), progress, kw.get("signed"))
    if action == "verify":
        return actions.verify(places, month, progress)
    if action == "papers":
        return actions.papers(places, month, progress)
    if action == "reopen":
        return actions.reopen(places, month, kw.get("reason", ""), progress)
    raise PoundError(f"no such action: {action}")


def _kept(scan) -> Path:
    """The scan of the signed page sent with "Close the month", in a file of its own until the close
    has copied it (the close checks that it is a PDF)."""
    import tempfile

    fd, name = tempfile.mkstemp(prefix="pound-desk-signed-", suffix=".pdf")
    with open(fd, "wb") as f:
        scan.save(f)
    return Path(name)


def create_app(places: actions.Places, *, host: str = "127.0.0.1", port: int = 8043, password: str | None = None,
               max_bytes: int = upload.MAX_BYTES, allowed_hosts: Iterable[str] = (),
               throttle: Throttle | None = None) -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = max_bytes + 64 * 1024      # the form's other fields and its framing
    allowed = hosts.answered(host, port, allowed_hosts)
    throttle = throttle or Throttle()
    desk = Desk(places, password, allowed)
    app.extensions["desk"] = desk

    @app.before_request
    def guard():
        if request.host.lower() not in desk.allowed_hosts:
            abort(400, "this desk answers only to its own address (the Host header named another)")
        if desk.password is not None:
            auth = request.authorization
            given = auth.password if auth is not None else None
            right = given is not None and hmac.compare_digest(given.encode(), desk.password.encode())
            wait = throttle.heard(request.remote_addr or "", tried=given is not None, right=right)
            if wait:
                return (f"too many wrong passwords from this address: {Throttle.words(wait)}", 429,
                        {"Retry-After": str(wait), "Content-Type": "text/plain; charset=utf-8"})
            if not right:
                return ("the desk needs its password", 401, {"WWW-Authenticate": 'Basic realm="pound desk"'})
        if request.method not in ("GET", "HEAD"):
            origin = request.headers.get("Origin")
            scheme, _, where = (origin or "").partition("://")
            if origin and origin != "null" and (scheme.lower() != request.scheme or where.lower() not in desk.allowed_hosts):
                abort(403, "a change may come only from the desk's own page")
            if not desk.token_ok(request.form.get("token")):
                abort(403, "this form has no valid token: reload the desk's page and try again")
        return None

    @app.after_request
    def headers(response):
        if request.endpoint in ("files", "close_file") and response.mimetype == "text/html":
            # the pages the review wrote draw their charts with inline scripts and styles: they run,
            # sandboxed in an origin of their own, so that they can neither read the desk's page
            # (its tokens) nor post to it
            response.headers["Content-Security-Policy"] = (
                "sandbox allow-scripts allow-downloads allow-popups; default-src 'self'; "
                "script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
                "connect-src 'none'; form-action 'none'; frame-ancestors 'none'")
        else:
            response.headers["Content-Security-Policy"] = ("default-src 'self'; style-src 'self'; script-src 'self'; "
                                                           "frame-ancestors 'none'; form-action 'self'")
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    def chosen(value: str | None) -> str:
        """The month a form sends: one written YYYY-MM, or 400 (never another month in its place)."""
        try:
            actions.month_end(value or "")
        except PoundError:
            abort(400, f"{(value or '')[:20]!r} is not a month written YYYY-MM: choose the month again")
        return value

    def month_of(value: str | None) -> str:
        choices = desk.months()
        if value in choices:
            return value
        if value:
            try:
                actions.month_end(value)
                return value
            except Exception:
                pass
        return choices[-1]

    def page(month: str, status: int = 200, refused: str | None = None):
        refused = refused or desk.said.get(request.args.get("said") or "")
        job = desk.job
        running = job is not None and job.finished is None
        state, months = desk.looked(month)
        found = offered.of_month(places, month)
        html = render_template(
            "desk.html", month=month, months=months, state=state, job=job, running=running,
            elapsed=(time.monotonic() - job.started) if job else 0, places=places, refused=refused,
            note=desk.note, token=desk.token(), actions_=ACTIONS, files=_files_url, password=desk.password,
            offered_files=found, paper_names=[f.name for f in found["papers"]
                                              if f.name == "index.html" or f.name.endswith("_all.pdf")],
            running_month=actions.not_over(month))
        return html, status

    def _files_url(path: Path) -> str | None:
        """The link to a file a step wrote (offered.py names it by month, kind and name), or None."""
        found = offered.where(places, Path(path))
        if found is None:
            return None
        if found.kind == "close":
            return url_for("close_file", month=found.month, close=found.close, name=found.name)
        return url_for("files", month=found.month, kind=found.kind, name=found.name)

    @app.get("/")
    def index():
        return page(month_of(request.args.get("month")))

    @app.post("/do/<action>")
    def do(action: str):
        if action not in ACTIONS:
            abort(404)
        month = chosen(request.form.get("month"))
        kw = {}
        if action == "close":
            kw = {"by": request.form.get("by", ""), "note": request.form.get("note")}
            scan = request.files.get("signed")
            if scan is not None and scan.filename:
                kw["signed"] = _kept(scan)
        elif action == "reopen":
            kw = {"reason": request.form.get("reason", "")}
        if not desk.start(action, month, **kw):
            if kw.get("signed"):
                kw["signed"].unlink(missing_ok=True)
            running = ACTIONS.get(desk.job.action, "an action") if desk.job else "an action"
            return page(month, 409, refused=f"the database is busy: \"{running}\" is running; "
                                            "wait for it to finish, then try again")
        desk.note = None                  # the file added is being loaded (or the month has moved on)
        return redirect(url_for("index", month=month), 303)

    @app.post("/show")
    def show():
        """"Show the month": the month chosen is the one the page shows, and acts on."""
        return redirect(url_for("index", month=chosen(request.form.get("month"))), 303)

    @app.post("/add")
    def add():
        month = month_of(request.form.get("month"))
        if desk.busy():
            return page(month, 409, refused="the database is busy: an action is running; add the file when it has finished")
        f = request.files.get("file")
        try:
            # held as an action holds it: no `pound` command loads the bundle while a file goes into it
            with holding(places.db, wait=0, what="the desk's \"Add register files\""):
                saved = upload.save(places.bundle, f.filename if f else None, f.stream if f else None, max_bytes,
                                    loaded=actions.loaded_files(places))
        except DatabaseBusy as exc:
            desk.note = None
            return refused_then_shown(month, f"the database is busy ({exc.holder or 'another program'} is using it); "
                                             "add the file when it has finished; nothing was saved")
        except PoundError as exc:
            desk.note = None
            return refused_then_shown(month, str(exc))
        except OSError as exc:
            desk.note = None
            return refused_then_shown(month, upload.not_saved(places.bundle, f.filename if f else "", exc))
        desk.note = (f"added {saved.path.name} to {saved.path.parent.name}/"
                     + (" in place of the file of that name" if saved.replaced else "")
                     + "; press \"Load the registers\" to load it")
        return redirect(url_for("index", month=month) + "#added", 303)

    def refused_then_shown(month: str, text: str):
        """A refused form: the page is shown by a GET (303), so that reloading it sends nothing again."""
        return redirect(url_for("index", month=month, said=desk.say(text)) + "#refused", 303)

    @app.get("/files/<month>/<kind>/<name>")
    def files(month: str, kind: str, name: str):
        """A file the month's steps wrote, by its month, kind and own name (offered.py); 404 for any other."""
        if kind == "close":
            abort(404)
        found = offered.find(places, month, kind, name)
        if found is None:
            abort(404)
        return send_file(found, max_age=0)

    @app.get("/files/<month>/close/<close>/<name>")
    def close_file(month: str, close: str, name: str):
        found = offered.find(places, month, "close", name, close)
        if found is None:
            abort(404)
        return send_file(found, max_age=0)

    @app.get("/progress")
    def progress():
        """What the running action is doing, for desk.js to show each second (the page reloads when done)."""
        job = desk.job
        running = job is not None and job.finished is None
        return {"running": running, "step": job.step if job else "",
                "elapsed": round(time.monotonic() - job.started) if running else 0}

    @app.get("/desk.css")
    def css():
        return send_from_directory(Path(__file__).parent / "templates", "desk.css")

    @app.get("/favicon.ico")
    def favicon():
        return "", 204                    # no icon: the browser's asking is answered without an error

    @app.get("/desk.js")
    def js():
        return send_from_directory(Path(__file__).parent / "templates", "desk.js", mimetype="text/javascript")

    @app.errorhandler(HTTPException)
    def refused(exc: HTTPException):
        if isinstance(exc, RequestEntityTooLarge):
            text = f"the file is larger than {max_bytes // (1024 * 1024)} MB; nothing was saved"
        else:
            text = exc.description or exc.name
        if exc.code in (400, 401, 403) and request.host.lower() not in desk.allowed_hosts:
            return text, exc.code, {"Content-Type": "text/plain; charset=utf-8"}
        if exc.code == 404:
            return text, 404, {"Content-Type": "text/plain; charset=utf-8"}
        if exc.code == 401:
            return text, 401, {"Content-Type": "text/plain; charset=utf-8"}
        if isinstance(exc, RequestEntityTooLarge) and request.endpoint in ("add", "do"):
            # (the body unread: the month is the page's, which the form's address carries)
            return refused_then_shown(month_of(request.args.get("month")), text)
        month = month_of(request.args.get("month"))
        return page(month, exc.code or 400, refused=text)

    @app.errorhandler(Exception)
    def failed(exc: Exception):
        """A defect met serving a request: the page says what failed and what to do (the details on
        the desk's terminal), never a bare 500."""
        import traceback

        traceback.print_exc()
        text = (f"the desk could not do this ({exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                "show the month again and retry; if it fails again, tell whoever looks after the desk: its window "
                "shows the details")
        try:
            return page(month_of(request.values.get("month")), 500, refused=text)
        except Exception:
            return text, 500, {"Content-Type": "text/plain; charset=utf-8"}

    return app
