"""The rule tests' bundles, built together (conftest.py says why).

Each bundle's ids are marked as its own (Q007~C1 for case C1 of the seventh bundle) before the
bundles of one as-of date, parameters and load day are inserted into one database and built;
each finding is handed back, unmarked, to the bundle whose mark its subject carries. The ids of
the reference set (pounds, local authorities, officials) are not marked: every bundle built
together shares the one reference set, as each would have it alone. A finding whose subject
carries no mark, or that names another bundle's id, means the bundles met in the database:
that group is then built one bundle at a time, and test_rules.py fails on it.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from helpers import AS_OF, REFERENCE, database, insert_rows, insert_text, text_frame

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import ID, REGISTERS
from pipeline.load import connection

HERE = Path(__file__).resolve().parent
# ids that name a row of the reference set (or an official): shared, never marked
SHARED_IDS = frozenset({"pound_id", "local_authority_id", "pound_keeper_id", "person_id", "buyer_person_id",
                        "conducted_by"})
MARK = re.compile(r"Q(\d{3,})~")
LEDGERS = frozenset({"local_fund", "dm_deposit"})


def _date(d) -> dt.date | None:
    return dt.date.fromisoformat(d) if isinstance(d, str) else d


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


NO_LEDGER_GRACE = 36500        # days: a hundred years


@dataclass(frozen=True)
class Scenario:
    """One rule test's bundle: the rows, the as-of date, the parameters, the load day and the
    bundle's own date."""

    as_of: dt.date
    params: dict
    loaded_on: dt.date
    bundle_as_of: dt.date | None
    tables: dict

    @classmethod
    def of(cls, as_of=AS_OF, params=None, loaded_on=None, bundle_as_of=None, tables=None) -> Scenario:
        # A bundle of a rule test keeps no ledgers unless it says so, and every fine paid would then be a
        # local fund credit never made (LF-CREDIT-OVERDUE): the tests of the other rules are not about
        # the ledgers, so their credits have a grace longer than any test; the tests of the two ledger
        # rules (test_ledger_rules.py) give ledger_grace themselves.
        params = {"ledger_grace": NO_LEDGER_GRACE, **(params or {})}
        return cls(_date(as_of), params, _date(loaded_on or as_of), _date(bundle_as_of), dict(tables or {}))

    def key(self) -> str:
        return _digest(self.group(), self.tables)

    def rows_key(self) -> str:
        return _digest(self.tables)

    def group(self) -> str:
        """Bundles with the same group are built together."""
        return _digest(self.as_of, self.params, self.loaded_on, self.bundle_as_of)

    def shares_the_reference(self) -> bool:
        return not set(self.tables) & set(REFERENCE)


@dataclass(frozen=True)
class Given:
    """A rule test declared as data: the rows given (register -> rows, as a clerk writes them), the
    run's as-of date, parameters and load day, and the findings expected (rule_rows.expect's
    arguments). The harness reads its bundle from the test's parameters, without calling the test
    (Together.read); the test asks the `findings` fixture for the findings and checks them:

        REL_UNPAID = [Given("paid-in-full", dict(impoundments=[case()], releases=[rel()]),
                            dict(rule_id="REL-UNPAID", fires=False)), ...]

        @pytest.mark.parametrize("given", REL_UNPAID, ids=str)
        def test_rel_unpaid(given, findings):
            expect(findings(given), **given.expected)
    """

    name: str
    rows: dict
    expected: dict
    as_of: str | dt.date = AS_OF
    params: dict | None = None
    loaded_on: str | dt.date | None = None
    bundle_as_of: str | dt.date | None = None

    def __str__(self) -> str:
        return self.name

    def scenario(self) -> Scenario:
        return Scenario.of(self.as_of, self.params, self.loaded_on, self.bundle_as_of, self.rows)


def findings_of(con, s: Scenario) -> list[dict]:
    """Build the database at s's as-of date, load day and parameters; every row of `findings`."""
    con.execute("UPDATE loads SET loaded_at = CAST(? AS TIMESTAMP) + INTERVAL 10 HOUR, bundle_as_of = CAST(? AS DATE)",
                [s.loaded_on, s.bundle_as_of])
    build(con, Parameters(s.params, as_of=s.as_of), upto="findings")
    cur = con.execute("SELECT * FROM findings")
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


_ALONE: OrderedDict[str, object] = OrderedDict()   # rows key -> connection (as_of and parameters vary)
_ALONE_SIZE = 6


def alone(s: Scenario) -> list[dict]:
    """The findings of one bundle built in a database of its own (helpers.database: a copy of the
    session's reference set with the rows inserted, or s's tables replacing the reference set)."""
    key = s.rows_key()
    con = _ALONE.get(key)
    if con is None:
        con = database(**s.tables)
        _ALONE[key] = con
        while len(_ALONE) > _ALONE_SIZE:
            _ALONE.popitem(last=False)[1].close()
    else:
        _ALONE.move_to_end(key)
    return findings_of(con, s)


def close_alone() -> None:
    for con in _ALONE.values():
        con.close()
    _ALONE.clear()


def _marked(i: int, register, rows: list[dict]) -> list[dict]:
    """The rows with each of the bundle's own ids marked: trimmed first, as the loader trims an id,
    so that " C1" is Q007~C1 (C1 alone) and a blank-looking " " stays blank."""
    ids = {c.name for c in register.columns if c.kind == ID and c.name not in SHARED_IDS}
    if register.name in LEDGERS:        # a ledger entry's reference names the bundle's case
        ids.add("reference")
    tag = f"Q{i:03d}~"

    def mark(v):
        text = "" if v is None else str(v).strip()
        return tag + text if text else text

    return [{k: (mark(v) if k in ids else v) for k, v in r.items()} for r in rows]


def _insert_together(con, scenarios: list[Scenario]) -> None:
    """The reference set once, then each register's rows of every bundle, marked, in one file
    label (each bundle's rows numbered from spreadsheet row 2, as alone)."""
    for reg in REGISTERS:
        if reg.name in REFERENCE:
            insert_rows(con, reg.name, REFERENCE[reg.name])
            continue
        frames = [text_frame(reg.name, rows) for i, s in enumerate(scenarios)
                  if (rows := _marked(i, reg, s.tables.get(reg.name) or []))]
        if frames:
            insert_text(con, reg.name, pd.concat(frames, ignore_index=True), f"{reg.folder}/{reg.name}.csv")


def _unmarked(found: list[dict], n: int) -> list[list[dict]]:
    """Each bundle's findings, unmarked; ValueError when a finding belongs to none or to two."""
    out: list[list[dict]] = [[] for _ in range(n)]
    for f in found:
        # a subject id may be made from a marked id: the s.17 security deposit 's17:<sale_id>' (R1)
        m = MARK.match((f.get("subject_id") or "").removeprefix("s17:"))
        if m is None:
            raise ValueError(f"a finding whose subject is no bundle's: {f}")
        tag = m.group(0)
        clean = {k: v.replace(tag, "") if isinstance(v, str) else v for k, v in f.items()}
        if any(isinstance(v, str) and MARK.search(v) for v in clean.values()):
            raise ValueError(f"a finding of one bundle names another bundle's id: {f}")
        out[int(m.group(1))].append(clean)
    return out


class Together:
    """The declared bundles, their groups, and the findings of each group once built."""

    def __init__(self) -> None:
        self.groups: dict[str, list[Scenario]] = {}
        self.keys: set[str] = set()             # of every declared bundle that is in a group
        self.found: dict[str, list[dict]] = {}
        self.built: set[str] = set()
        self.failed: dict[str, str] = {}        # group -> why it was built one bundle at a time

    def add(self, s: Scenario) -> None:
        if not s.shares_the_reference():
            return
        if s.key() not in self.keys:
            self.keys.add(s.key())
            self.groups.setdefault(s.group(), []).append(s)

    def read(self, items) -> None:
        """Take the bundle of every rule test from its parameters (the Given it is called with): no
        test is called to find it."""
        for item in items:
            for g in getattr(getattr(item, "callspec", None), "params", {}).values():
                if isinstance(g, Given):
                    self.add(g.scenario())

    def findings(self, s: Scenario) -> list[dict] | None:
        """s's findings built together with its group, or None: s is to be built alone."""
        group = s.group()
        if s.key() not in self.keys or len(self.groups[group]) < 2:
            return None
        if group not in self.built:
            self.build(group)
        found = self.found.get(s.key())
        return copy.deepcopy(found) if found is not None else None

    def build(self, group: str) -> None:
        self.built.add(group)
        members = self.groups[group]
        con = connection.connect(":memory:")
        try:
            _insert_together(con, members)
            each = _unmarked(findings_of(con, members[0]), len(members))
        except ValueError as exc:
            self.failed[group] = str(exc)
            return
        finally:
            con.close()
        for s, found in zip(members, each, strict=True):
            self.found[s.key()] = found
