"""One lock for every door onto a database: a `pound` command and a desk step hold it whole.

DuckDB locks the file only while a connection is open, and a step opens several in turn (a build,
then the report kernels reading it, then the PDFs): between two of them another program could
slip in. So each step holds `holding(db, wait, what)` from its start to its end: an exclusive
flock on `<db>.lock` beside the database. A second step waits for it up to `wait` seconds, then is
refused with DatabaseBusy naming who holds it (written into the lock file by the holder).

- The kernel lets the lock go when its holder dies: a lock file left by a killed process means
  nothing, and the next holder takes it. The holder removes the file as it lets go (under the
  lock; a waiter that locked a removed file tries again), so no lock file is left beside the
  database after a step.
- Within one process the lock is the thread's that took it: the same thread may nest holding()
  of the same database (counted), another thread waits as another process would (the desk's page
  reads and its step, which DuckDB must never meet in one process with two configurations).
- The processes a holder starts (report kernels, Chromium) are part of its step: $POUND_DB_HELD
  names the databases held and by which process, and a descendant of that process does not take
  the lock again.

Inside the lock, DuckDB's own file lock is still met when a program other than pound holds the
file: `opened` retries it for `wait` seconds too.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pipeline.core.errors import DatabaseBusy, PoundError

T = TypeVar("T")
DEFAULT_WAIT = 30          # seconds; --wait
POLL = 0.1
HELD_ENV = "POUND_DB_HELD"     # {"<resolved db>": <pid of the holder>, ...}: the children of a holder
INFO_MAX = 300                 # bytes of the holder's line read back


def lock_file(db: Path | str) -> Path:
    """The lock of a database: `<db>.lock`, beside it (as DuckDB's own `<db>.wal`)."""
    return Path(f"{db}.lock")


@dataclass
class _Hold:
    owner: int          # the thread holding it
    pid: int            # the process (a forked child is not the holder)
    count: int          # nested holding() of that thread
    fd: int | None      # the flocked lock file; None where it could not be opened (a read-only place)
    what: str
    since: str


_guard = threading.Lock()
_holds: dict[str, _Hold] = {}
_mutexes: dict[str, threading.Lock] = {}


def _key(db: Path | str) -> str:
    return str(Path(db).resolve())


@contextlib.contextmanager
def holding(db: Path | str, wait: float = DEFAULT_WAIT, what: str = "a pound command",
            make_folder: bool = False) -> Iterator[None]:
    """Hold the database `db` for the block: wait up to `wait` seconds while another step (another
    process, or another thread of this one) holds it, then raise DatabaseBusy. `what` names this
    step to whoever is refused meanwhile ("pound build", "the desk's \\"Load the registers\\"").
    `make_folder`: the database's folder is made if missing (`pound run` makes it), and removed
    again at the end if the step left it empty."""
    key, me, pid = _key(db), threading.get_ident(), os.getpid()
    if inherited(key):
        yield
        return
    with _guard:
        hold = _holds.get(key)
        if hold is not None and hold.owner == me and hold.pid == pid:
            hold.count += 1
        else:
            hold = None
            mutex = _mutexes.setdefault(key, threading.Lock())
    if hold is not None:                       # nested in the same thread: already held
        try:
            yield
        finally:
            with _guard:
                hold.count -= 1
        return

    wait = max(float(wait), 0.0)
    deadline = time.monotonic() + wait
    told = [False]

    def waiting(holder: str | None) -> None:
        if not told[0] and wait > 0:
            print(f"waiting up to {wait:g} s for database {db}, which {holder or 'another program'} is using",
                  file=sys.stderr)
            told[0] = True

    if not mutex.acquire(blocking=False):
        waiting(_in_this_process(key))
        if wait <= 0 or not mutex.acquire(timeout=wait):
            raise DatabaseBusy(db, _in_this_process(key), wait)
    folder, made = Path(key).parent, None
    try:
        if make_folder and not folder.exists():
            folder.mkdir(parents=True)
            made = folder
        fd = _lock(lock_file(key), deadline, what, waiting, db, wait)
    except BaseException:
        if made is not None:
            with contextlib.suppress(OSError):
                made.rmdir()
        mutex.release()
        raise
    with _guard:
        _holds[key] = _Hold(me, pid, 1, fd, what, f"{dt.datetime.now():%H:%M:%S}")
        _name_in_env(key, pid)
    try:
        yield
    finally:
        with _guard:
            del _holds[key]
            _name_in_env(key, None)
        try:
            _let_go(fd, lock_file(key))
            if made is not None:
                with contextlib.suppress(OSError):
                    made.rmdir()              # only if the step left it empty
        finally:
            mutex.release()


def _in_this_process(key: str) -> str | None:
    with _guard:
        hold = _holds.get(key)
        return f"{hold.what} (pid {hold.pid}, since {hold.since})" if hold is not None else None


def _lock(path: Path, deadline: float, what: str, waiting, named: Path | str, wait: float) -> int | None:
    """The lock file `path`, opened and flocked exclusively; None when it cannot be opened (a
    database in a folder this user may not write, with no lock file yet, or in no folder at all:
    DuckDB's lock alone, or the step's own "does not exist")."""
    import fcntl

    while True:
        fd = _open(path)
        if fd is None:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            left = deadline - time.monotonic()
            if left <= 0:
                raise DatabaseBusy(named, holder, wait) from None
            waiting(holder)
            time.sleep(min(POLL, left))
            continue
        except BaseException:
            os.close(fd)
            raise
        # the holder before removed the file as it let go: this lock is of a file no one else will
        # open again; take the one now at the path instead
        try:
            now, mine = os.stat(path, follow_symlinks=False), os.fstat(fd)
            same = (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev)
        except FileNotFoundError:
            same = False
        if not same:
            os.close(fd)
            continue
        _write_holder(fd, what)
        return fd


def _open(path: Path) -> int | None:
    """Open the lock file, making it if need be (readable and writable as the umask lets a new
    database file be, so that whoever may write the database may lock it). A symbolic link or
    anything but a plain file at its place is refused: a lock file is written."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PoundError(f"{path} is a symbolic link; pound keeps its lock of the database there: "
                             "remove the link and run this again") from None
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise PoundError(f"cannot open the lock of the database, {path} ({exc.strerror})") from None
        try:                # another user's lock file: a read-only descriptor may be flocked all the same
            fd = os.open(path, os.O_RDONLY | flags)
        except OSError:
            return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise PoundError(f"{path} is not a file; pound keeps its lock of the database there: remove it and "
                         "run this again")
    return fd


def _write_holder(fd: int, what: str) -> None:
    line = f"{os.getpid()}\t{what}\t{dt.datetime.now():%Y-%m-%d %H:%M:%S}\n".encode("utf-8", "replace")
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, line[:INFO_MAX], 0)
    except OSError:           # opened read-only: the refusal then names no one
        pass


def _holder(fd: int) -> str | None:
    """Who holds the lock, as its holder wrote it: "pound build (pid 4120, since 07:40:12)"; None
    when the line is missing, garbled, or of a process that is gone."""
    try:
        text = os.pread(fd, INFO_MAX, 0).decode("utf-8", "replace")
        pid_text, what, since = text.split("\n", 1)[0].split("\t")
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    if pid <= 0 or not alive(pid):
        return None
    what = "".join(c for c in what if c.isprintable())[:120]
    return f"{what} (pid {pid}, since {since[11:19] or since})"


def alive(pid: int) -> bool:
    """Whether a process of this pid is running (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _let_go(fd: int | None, path: Path) -> None:
    """Remove the lock file while still holding it, then let go (closing the descriptor)."""
    if fd is None:
        return
    try:
        with contextlib.suppress(OSError):
            now, mine = os.stat(path, follow_symlinks=False), os.fstat(fd)
            if (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev):
                os.unlink(path)
    finally:
        os.close(fd)


def _name_in_env(key: str, pid: int | None) -> None:
    """$POUND_DB_HELD, for the processes this one starts while it holds `key` (called under _guard)."""
    held = _env_held()
    if pid is None:
        held.pop(key, None)
    else:
        held[key] = pid
    if held:
        os.environ[HELD_ENV] = json.dumps(held)
    else:
        os.environ.pop(HELD_ENV, None)


def _env_held() -> dict[str, int]:
    try:
        held = json.loads(os.environ.get(HELD_ENV) or "{}")
    except ValueError:
        return {}
    return {k: v for k, v in held.items() if isinstance(k, str) and isinstance(v, int)} if isinstance(held, dict) else {}


def inherited(key: str) -> bool:
    """Whether a process this one descends from holds the database `key` for the step that started
    this one (a report's kernel, say): then this process works inside that step."""
    pid = _env_held().get(key)
    return pid is not None and pid != os.getpid() and _descends_from(pid)


def _descends_from(pid: int) -> bool:
    parent = os.getppid()
    for _ in range(64):
        if parent == pid:
            return True
        if parent <= 1:
            return False
        try:
            text = Path(f"/proc/{parent}/stat").read_text()
            parent = int(text.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
    return False


def is_lock_error(exc: BaseException, path: Path) -> bool:
    """Whether opening `path` failed because another process holds DuckDB's lock on it: the one test
    of a busy database. By type, DuckDB's IOException, and by the lock itself: the kernel's table of
    locks (/proc/locks) names a process other than this one holding a lock on the file. Only where
    that table cannot be read (not Linux) is DuckDB's wording read instead."""
    if not _io_error(exc):
        return False
    held = _locked_by_others(path)
    if held is not None:
        return held
    text = str(exc).lower()
    return "could not set lock" in text or "conflicting lock" in text


def _io_error(exc: BaseException) -> bool:
    import duckdb

    return isinstance(exc, duckdb.IOException)


def _locked_by_others(path: Path) -> bool | None:
    """Whether a process other than this one holds a lock on `path` (/proc/locks), None when unknown."""
    try:
        st = os.stat(path)
        table = Path("/proc/locks").read_text()
    except OSError:
        return None
    me = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in table.splitlines():
        fields = line.replace("->", "").split()
        if len(fields) >= 6 and fields[5] == me and fields[4] != str(os.getpid()):
            return True
    return False


def in_use(path: Path, waited: float) -> DatabaseBusy:
    return DatabaseBusy(path, None, waited)


def opened(open_db: Callable[[], T], path: Path, wait: float = DEFAULT_WAIT) -> T:
    """open_db() once DuckDB lets this process have the file, trying again until `wait` seconds
    have passed (a program other than pound holding it: pound's own steps meet in `holding`)."""
    deadline = time.monotonic() + max(wait, 0)
    told = again = False
    while True:
        try:
            return open_db()
        except Exception as exc:
            if not is_lock_error(exc, path):
                # the holder may have let go between DuckDB's refusal and the look at the locks: once more
                if again or not _io_error(exc):
                    raise
                again = True
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                raise in_use(path, wait) from None
            if not told:
                print(f"waiting up to {wait:g} s for database {path}, which another program is using",
                      file=sys.stderr)
                told = True
            time.sleep(min(POLL, left))
