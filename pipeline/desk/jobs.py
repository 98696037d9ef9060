"""The desk's state between requests: the action running or last run (one at a time, each holding
the database's lock for the whole of it), the month's state as last read, the page tokens and the
refusals shown after a redirect. The month's steps are reached only through actions.py; nothing
here knows of HTTP."""

from __future__ import annotations

import contextlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from pipeline import steps
from pipeline.core.errors import DatabaseBusy, InputRejected, PoundError
from pipeline.core.locks import holding
from pipeline.desk import actions, looked

ACTIONS = {name: a.label for name, a in actions.REGISTRY.items()}   # the words of each, for the page
OFFICE = "office"          # who works at the desk when it has no people (one office user, this machine only)
PAGE = "the desk's page"   # who holds the database while the page reads it, a moment
TOKENS_KEPT = 256          # the tokens of the pages served last; an older page is asked to reload


@dataclass
class Read:
    """What a page read of the database (Desk.read); None where it could not be read now."""
    state: looked.State
    months: list[str]
    waiting: list | None = None             # decide.Waiting, the findings waiting up to the month
    month_rows: list | None = None          # looked.MonthRow, the months table
    bundle_files: list | None = None        # bundlefiles' rows, the files in registers/ and ledgers/
    not_read: dict[str, str] = field(default_factory=dict)   # part -> why it is None, when not for a busy database


def _part(read, part: str, not_read: dict[str, str], older: str | None = None):
    """What `read()` gives; None when it cannot be read: for a busy database (the page says so), or,
    with why put in `not_read[part]`, a build this version cannot read (`older`: PoundError) or a
    defect (its traceback on the desk's terminal, as `app.failed` leaves one)."""
    try:
        return read()
    except DatabaseBusy:
        return None
    except PoundError as exc:
        not_read[part] = older or str(exc)
    except Exception as exc:
        import traceback

        traceback.print_exc()
        not_read[part] = (f"the desk could not read it ({exc.__class__.__name__}); if this stays, tell whoever "
                          "looks after the desk: its window shows the details")
    return None


# Why the page cannot list the findings waiting of a database whose last build this version cannot
# read (read/database.py check): the month's review builds it again.
OLDER_BUILD = ("the last build was made by an earlier version of pound, or did not finish: "
               "\"Make the month's review\" builds the month again")


def doing(label: str) -> str:
    """How the desk names itself to whoever finds the database held by one of its steps
    (core/locks.py `what`): the desk's "Load the registers"."""
    return f"the desk's \"{label}\""


@dataclass
class Job:
    action: str
    month: str
    started: float = field(default_factory=time.monotonic)
    step: str = "starting"
    finished: float | None = None
    result: object = None
    error: str | None = None
    rejects: list = field(default_factory=list)      # core.errors.Problem, of a file refused (InputRejected)


class Desk:
    """The desk's state between requests: its places, the job running or last run, the page tokens."""

    def __init__(self, places: actions.Places, password: str | None = None, allowed_hosts: set[str] | None = None):
        self.places = places
        self.password = password
        self.allowed_hosts = allowed_hosts or set()
        self.lock = threading.Lock()
        self.job: Job | None = None
        self.tokens: deque[tuple[str, str | None]] = deque(maxlen=TOKENS_KEPT)    # (token, the person given it)
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

    @contextlib.contextmanager
    def reading(self):
        """The database held for a page's read, a moment, without waiting (core/locks.py), and never
        from the moment an action is started: its thread is about to take the database, and a page
        drawn meanwhile (by another tab, or a page polling) must not take it first and leave the
        action waiting on the desk's own reads until it is told the database is busy. The page
        then shows what was last read, as while the action runs."""
        if self.busy():
            job = self.job
            running = job is not None and job.finished is None
            raise DatabaseBusy(self.places.db, doing(ACTIONS.get(job.action, job.action)) if running else None, 0)
        with holding(self.places.db, wait=0, what=PAGE):
            yield

    def read(self, month: str | None) -> Read:
        """What the page shows of the database: the month's state (of `month`; None: the last of the
        months to choose from), the months to choose from, the findings waiting, the months table and
        the bundle's files, all read in one hold of its lock (core/locks.py) and over one connection
        (one open of the file, not six). The lock is taken without waiting: never while an action
        holds it (DuckDB refuses a second connection of another kind in one process, and the action
        must not meet one), nor while a `pound` command does; the page then shows the state and
        months last read, and says the rest cannot be read now. A part that cannot be read (busy,
        or built by an earlier version) is None, said on the page."""
        from pipeline.desk import bundlefiles, decide
        from pipeline.load import connection

        places = self.places
        try:
            with self.reading(), connection.read_lazily(places.db) as con, \
                    steps.states(places.db, places.bundle if places.bundle.is_dir() else None, con=con) as state_of:
                held = looked.months(places, con=con)
                month = month or held[-1]
                self.seen[month] = (looked.state(places, month, state_of), held)
                self.choices = held
                not_read: dict[str, str] = {}
                return Read(*self.seen[month],
                            waiting=_part(lambda: decide.waiting(places, month, con=con), "waiting", not_read, OLDER_BUILD),
                            month_rows=_part(lambda: looked.month_rows(places, state_of, held), "month_rows", not_read),
                            bundle_files=_part(lambda: bundlefiles.rows(places, looked.loaded_files(places, con)),
                                               "bundle_files", not_read),
                            not_read=not_read)
        except DatabaseBusy as exc:
            held = self.months()
            month = month or held[-1]
            if month not in self.seen:
                return Read(looked.State(month, "busy", f"being worked on by {exc.holder or 'another program'}",
                                         "wait for it to finish"), held)
        except PoundError as exc:                # the lock file cannot be had (a link in its place)
            held = self.months()
            month = month or held[-1]
            return Read(looked.State(month, "error", "its state cannot be read", "correct what is named above, then "
                                     "show the month again", problem=str(exc)), held)
        return Read(*self.seen[month])

    def months(self) -> list[str]:
        """The months to choose from, read as read() reads them (the last read while the database is held)."""
        try:
            with self.reading():
                self.choices = looked.months(self.places)
        except PoundError:                       # busy (DatabaseBusy), or the lock file cannot be had
            if self.choices is None:
                return looked.months(self.places, read=False)
        return self.choices

    def token(self, person: str | None = None) -> str:
        """A new token for a page drawn for `person` (None: the desk without people)."""
        t = secrets.token_urlsafe(24)
        self.tokens.append((t, person))
        return t

    def token_ok(self, given: str | None, person: str | None = None) -> bool:
        """Whether `given` is a token of a page drawn for `person`: a page's token is good only for
        the person it was drawn for, so that one person's page cannot be made to act as another."""
        return bool(given) and any(hmac.compare_digest(given, t) and p == person for t, p in list(self.tokens))

    def busy(self) -> bool:
        return self.lock.locked()

    def start(self, action: str, month: str, who: str = OFFICE, **kw) -> bool:
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
                with holding(self.places.db, wait=actions.DB_WAIT, what=doing(ACTIONS.get(action, action))):
                    job.result = _run(self.places, action, month, actions.Steps(tell), **kw)
            except InputRejected as exc:
                job.error = "the file was refused; nothing from it was loaded"
                job.rejects = list(exc.problems)
            except PoundError as exc:
                job.error = _busy_words(exc) or str(exc)
            except Exception as exc:  # a defect: one line on the page, the traceback on the desk's terminal
                job.error = _busy_words(exc) or f"failed: {exc.__class__.__name__}: {exc}"
                if not _busy_words(exc):
                    import traceback

                    traceback.print_exc()
            finally:
                _logged(self.places, who, action, month, job)
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


def _logged(places, who: str, action: str, month: str, job: Job) -> None:
    """The step in the desk's history, with what it came to; each file a load refused, with its reasons."""
    from pipeline.desk import history
    from pipeline.desk.decide import Decided

    try:
        r = job.result
        result = job.error or _said(r)
        history.write(places.bundle, who, action, month, result)
        loaded = r.loaded if isinstance(r, Decided) else r
        rejects = list(job.rejects) + (loaded.result.problems if isinstance(loaded, steps.Loaded) else [])
        by_file: dict[str, list[str]] = {}
        for p in rejects:
            where = ", ".join(x for x in (f"row {p.row}" if p.row is not None else "", p.column or "") if x)
            by_file.setdefault(p.file.split(" [", 1)[0], []).append((where + ": " if where else "") + p.said())
        for file, reasons in by_file.items():
            history.write(places.bundle, who, "rejected", month, "\n".join(reasons[:10]), file=file)
    except OSError:                    # a bundle that will not take the line: the step is done all the same
        import traceback

        traceback.print_exc()


def _said(r) -> str:
    """A step's result in one line, for the history (a Shown's, its step's)."""
    from pipeline.desk.decide import Decided

    if isinstance(r, actions.Shown):
        r = r.result
    if isinstance(r, steps.Loaded | steps.Papers):
        return r.summary()
    if isinstance(r, Decided):
        return "; ".join(r.lines)
    if isinstance(r, steps.Verified):
        return "intact" if r.intact else "not intact"
    if isinstance(r, actions.Reopened):
        return f"reopened: {r.reason}"
    if isinstance(r, actions.Sealed):
        return f"the review sealed with the close shown; {len(r.moved)} figure(s) moved since"
    if isinstance(r, steps.Closed):
        return f"signed page added: {r.added.name}" if r.added else f"closed: {r.folder.name}, figures id {r.figures_id}"
    if isinstance(r, steps.Reviewed):
        return f"review made, figures id {r.figures_id}" if r.figures_id else "review made"
    return "done"


def _busy_words(exc: BaseException) -> str | None:
    if isinstance(exc, DatabaseBusy):
        return (f"the database is busy: {exc.holder or 'another program (a `pound` command?)'} is using it; "
                "try again when it has finished")
    return None


def _run(places: actions.Places, action: str, month: str, progress, **kw):
    found = actions.REGISTRY.get(action)
    if found is None:
        raise PoundError(f"no such action: {action}")
    return found.run(places, month, progress, **kw)

