"""The desk's people and their roles (pound desk --users FILE; pound users add NAME --role ROLE).

The file is JSON: {"people": [{"name": ..., "role": ..., "hash": ...}]}, a password kept only as
its argon2id hash (argon2-cffi: salted, memory-hard), never in clear. The roles go one above the
other, each may do what the one below it may:

- auditor: read every page, download every file, verify; change nothing;
- clerk: also add and remove files, load, make the review, the papers and the workbooks;
- dm: also decide on findings, close, reopen and add the signed scan; the close is signed with the
  District Magistrate's own name.

What an action needs is the desk's registry's (actions.REGISTRY, `role`) or, for what is no step,
OTHER below; the page shows only the buttons a role may press and the server refuses the rest (403).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.whole import written_whole

ROLES = ("auditor", "clerk", "dm")          # each may do what the one before it may
RANK = {r: i for i, r in enumerate(ROLES)}
OTHER = {"add": "clerk", "remove": "clerk", "workbooks": "clerk"}   # what is not a step of the registry
MIN_PASSWORD = 10


@dataclass(frozen=True)
class Person:
    name: str
    role: str


def needed(action: str) -> str:
    """The least role that may do `action` (an action of the registry, or one of OTHER); dm for any other."""
    from pipeline.desk.actions import REGISTRY

    if action in REGISTRY:
        return REGISTRY[action].role
    return OTHER.get(action, "dm")


def may(person: Person | None, action: str) -> bool:
    """Whether `person` may do `action`; None is the desk without people (one office user): all."""
    if person is None:
        return True
    return RANK.get(person.role, -1) >= RANK[needed(action)]


def checked_name(name: str) -> str:
    name = " ".join(str(name or "").split())
    if not name or len(name) > 80 or ":" in name or any(unicodedata.category(c).startswith("C") for c in name):
        raise PoundError(f"{name[:80]!r}: a person's name is 1 to 80 characters, with no colon and no control "
                         "character (it is typed to log in, and signs the close)")
    return name


def _hasher():
    from argon2 import PasswordHasher

    return PasswordHasher()               # argon2id, RFC 9106's low-memory profile (argon2-cffi's default)


def read(path: Path) -> dict[str, tuple[Person, str]]:
    """The people of the file, by name: (the person, the password's hash)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PoundError(f"--users {path}: cannot be read ({exc.strerror})") from None
    except ValueError:
        raise PoundError(f"--users {path}: not a file of the desk's people (pound users add writes one)") from None
    people = {}
    for p in data.get("people", []) if isinstance(data, dict) else []:
        if not isinstance(p, dict) or p.get("role") not in ROLES or not str(p.get("hash", "")).startswith("$argon2id$"):
            raise PoundError(f"--users {path}: {str(p)[:60]!r} is not a person with a role ({', '.join(ROLES)}) and "
                             "an argon2id hash: write the file with pound users add")
        name = checked_name(p.get("name"))
        people[name] = (Person(name, p["role"]), p["hash"])
    if not people:
        raise PoundError(f"--users {path}: names nobody: add a person with pound users add NAME --role dm --users {path}")
    return people


def add(path: Path, name: str, role: str, password: str) -> Person:
    """Add a person to the file (or set a person's role and password again), written whole, readable by its owner only."""
    name = checked_name(name)
    if role not in ROLES:
        raise PoundError(f"--role {role}: one of {', '.join(ROLES)}")
    if len(password) < MIN_PASSWORD:
        raise PoundError(f"the password must have at least {MIN_PASSWORD} characters")
    path = Path(path)
    people = []
    if path.exists():
        people = [{"name": p.name, "role": p.role, "hash": h} for n, (p, h) in read(path).items() if n != name]
    people.append({"name": name, "role": role, "hash": _hasher().hash(password)})
    with written_whole(path) as part:          # readable by this user only: it holds the hashes
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"people": people}, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return Person(name, role)


class Door:
    """Who is asking: a name and password checked against the file's hashes. A pair once checked is
    remembered by a keyed digest (in memory, with a key of this process's) so that the page's
    polling does not pay argon2's cost each second."""

    def __init__(self, people: dict[str, tuple[Person, str]]):
        self.people = people
        self._key = secrets.token_bytes(32)
        self._known: dict[bytes, Person] = {}
        self._lock = threading.Lock()
        self._dummy = _hasher().hash(secrets.token_hex(16))

    def who(self, name: str | None, password: str | None) -> Person | None:
        if not name or password is None:
            return None
        digest = hmac.new(self._key, f"{name}\0{password}".encode(), hashlib.sha256).digest()
        with self._lock:
            known = self._known.get(digest)
        if known is not None:
            return known
        from argon2.exceptions import VerificationError, VerifyMismatchError

        found = self.people.get(name)
        try:
            _hasher().verify(found[1] if found else self._dummy, password)   # the same cost for a name unknown
        except (VerifyMismatchError, VerificationError, Exception):
            return None
        if found is None:
            return None
        with self._lock:
            if len(self._known) > 1024:
                self._known.clear()
            self._known[digest] = found[0]
        return found[0]
