"""Local helpers for the rule tests: build a small bundle, run the pipeline, return its findings.

Every bundle is written with tests/helpers.make_bundle and loaded with the real loader
(pipeline.ingest.ingest) and built with the real builder (pipeline.build.build), exactly as
helpers.built does. Two things only make the ~200 builds affordable:

* the shared reference set of helpers.REFERENCE is ingested once per session into a template
  database; a bundle that uses it unchanged starts from a copy of that database and ingests its
  own register files on top (ingest(..., require_reference=False)), one register at a time in the
  loader's own order (pipeline.registers.REGISTERS), keeping a snapshot after each register so that
  bundles sharing their first registers (the same impoundments, the same police reports ...) do
  not validate them again. A bundle that replaces a reference file (e.g. notifications) is
  ingested whole, as helpers.built does;
* an ingested bundle is kept (a small LRU) so that variants differing only in as_of or in the
  parameters rebuild the same database instead of ingesting it again.
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
from helpers import AS_OF, REFERENCE, make_bundle

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import REGISTERS
from pipeline.load import db
from pipeline.load.ingest import ingest

_CACHE: OrderedDict[str, tuple] = OrderedDict()   # bundle key -> (connection, its scratch dir)
_CACHE_SIZE = 6
_SNAPSHOTS: dict[str, Path] = {}          # key of the registers loaded so far -> database file
_ORDER = [r.name for r in REGISTERS if r.folder != "reference"]


def _key(tables: dict) -> str:
    return hashlib.sha256(json.dumps(tables, sort_keys=True, default=str).encode()).hexdigest()


@pytest.fixture(scope="session")
def _scratch(tmp_path_factory):
    """Where the database files go: tmpfs when there is one (no fsync on close), else pytest's tmp."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        root = Path(tempfile.mkdtemp(prefix="pound-rule-tests-", dir=shm))
        yield root
        for con, _ in _CACHE.values():
            con.close()
        _CACHE.clear()
        _SNAPSHOTS.clear()
        shutil.rmtree(root, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp("scratch")


@pytest.fixture(scope="session")
def _snapshots(_scratch) -> Path:
    (_scratch / "snapshots").mkdir()
    return _scratch / "snapshots"


@pytest.fixture(scope="session")
def _template(_scratch, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reference")
    bundle = make_bundle(root / "bundle")
    path = _scratch / "template.duckdb"
    con = db.connect(path)
    result = ingest(con, bundle)
    assert not result.rejected, [p.render() for p in result.problems]
    con.close()
    return path


def _date(d) -> dt.date:
    return dt.date.fromisoformat(d) if isinstance(d, str) else d


def _ingest_staged(tables: dict, template: Path, snapshots: Path, work: Path, scratch: Path):
    """Ingest the register files of `tables` on top of the reference template, register by register."""
    unknown = set(tables) - set(_ORDER)
    assert not unknown, unknown
    stages = [name for name in _ORDER if name in tables]
    keys = [_key({name: tables[name] for name in stages[:i + 1]}) for i in range(len(stages))]
    start, source = 0, template
    for i in range(len(stages), 0, -1):
        if keys[i - 1] in _SNAPSHOTS:
            start, source = i, _SNAPSHOTS[keys[i - 1]]
            break
    path = scratch / "db.duckdb"
    shutil.copyfile(source, path)
    con = db.connect(path)
    for i in range(start, len(stages)):
        name = stages[i]
        bundle = make_bundle(work / f"stage{i}", reference=False, **{name: tables[name]})
        result = ingest(con, bundle, require_reference=False)
        assert not result.rejected, [p.render() for p in result.problems]
        if i < len(stages) - 1:
            con.close()
            snap = snapshots / f"{keys[i]}.duckdb"
            shutil.copyfile(path, snap)
            _SNAPSHOTS[keys[i]] = snap
            con = db.connect(path)
    return con


@pytest.fixture
def run(_template, _snapshots, _scratch, tmp_path):
    """run(as_of=..., params={...}, **tables) -> list of finding dicts (every column of `findings`).

    tables: register name -> list of row dicts, as for helpers.make_bundle; a reference name
    (e.g. notifications=[...]) replaces that reference file.
    """
    counter = iter(range(1000))

    def _run(as_of=AS_OF, params: dict | None = None, **tables) -> list[dict]:
        key = _key(tables)
        hit = _CACHE.get(key)
        if hit is None:
            scratch = None
            work = tmp_path / f"bundle{next(counter)}"
            if set(tables) & set(REFERENCE):
                con = db.connect(":memory:")
                result = ingest(con, make_bundle(work, **tables))
                assert not result.rejected, [p.render() for p in result.problems]
            else:
                work.mkdir()
                scratch = Path(tempfile.mkdtemp(dir=_scratch))
                con = _ingest_staged(tables, _template, _snapshots, work, scratch)
            _CACHE[key] = (con, scratch)
            while len(_CACHE) > _CACHE_SIZE:
                old, old_dir = _CACHE.popitem(last=False)[1]
                old.close()
                if old_dir is not None:
                    shutil.rmtree(old_dir, ignore_errors=True)
        else:
            con = hit[0]
            _CACHE.move_to_end(key)
        build(con, Parameters(params or {}, as_of=_date(as_of)))
        cur = con.execute("SELECT * FROM findings")
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    return _run
