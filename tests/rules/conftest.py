"""Local helpers for the rule tests: a small set of register rows, built, and its findings.

The rows are typed by the loader's own parser and inserted straight into the register
tables (helpers.insert_rows), on top of a copy of the shared reference set unless a test
replaces a reference table; the loading itself is tested in tests/load. The build stops at
the findings. Bundles that differ only in
as_of or in the parameters rebuild the same database (a small cache keyed by the rows).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import tempfile
from collections import OrderedDict
from pathlib import Path

import pytest
from helpers import AS_OF, REFERENCE, database, insert_rows

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import REGISTERS
from pipeline.load import db

_CACHE: OrderedDict[str, object] = OrderedDict()   # rows key -> connection
_CACHE_SIZE = 6


def _key(tables: dict) -> str:
    return hashlib.sha256(json.dumps(tables, sort_keys=True, default=str).encode()).hexdigest()


def _date(d) -> dt.date:
    return dt.date.fromisoformat(d) if isinstance(d, str) else d


@pytest.fixture(scope="session")
def _template():
    """The reference set inserted once, in a file each test copies (tmpfs when there is one)."""
    shm = Path("/dev/shm")
    root = Path(tempfile.mkdtemp(prefix="pound-rule-tests-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    path = root / "template.duckdb"
    database(path=path).close()
    yield root, path
    for con in _CACHE.values():
        con.close()
    _CACHE.clear()
    shutil.rmtree(root, ignore_errors=True)


def _database(template, tables: dict):
    root, path = template
    if set(tables) & set(REFERENCE):
        return database(**tables)
    copy = Path(tempfile.mkstemp(suffix=".duckdb", dir=root)[1])
    shutil.copyfile(path, copy)
    con = db.connect(copy)
    for reg in REGISTERS:
        if tables.get(reg.name):
            insert_rows(con, reg.name, tables[reg.name])
    return con


@pytest.fixture
def run(_template):
    """run(as_of=..., params={...}, **tables) -> list of finding dicts (every column of `findings`).

    tables: register name -> list of row dicts (text, as a clerk writes them); a reference name
    (e.g. notifications=[...]) replaces that reference table.
    """

    def _run(as_of=AS_OF, params: dict | None = None, loaded_on=None, bundle_as_of=None, **tables) -> list[dict]:
        """loaded_on, bundle_as_of: the day every row was loaded (default: as_of, so that no test hangs on
        the real clock) and the bundle's own date (default: none)."""
        key = _key(tables)
        con = _CACHE.get(key)
        if con is None:
            con = _database(_template, tables)
            _CACHE[key] = con
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)[1].close()
        else:
            _CACHE.move_to_end(key)
        con.execute("UPDATE loads SET loaded_at = CAST(? AS TIMESTAMP) + INTERVAL 10 HOUR, bundle_as_of = CAST(? AS DATE)",
                    [_date(loaded_on or as_of), bundle_as_of and _date(bundle_as_of)])
        build(con, Parameters(params or {}, as_of=_date(as_of)), upto="findings")
        cur = con.execute("SELECT * FROM findings")
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    return _run
