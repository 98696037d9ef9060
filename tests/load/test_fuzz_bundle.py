"""Fuzzing the loader: the golden bundle's files mutated at random (hypothesis). Whatever a clerk
hands over, `pound ingest` ends with exit 0 or 2, never a traceback or exit 1; every rejection
names its file; and a rejected ingest leaves the kept database's contents exactly as they were.

Each example loads one mutated file into a copy of a database that already holds the golden
bundle (the other files would be skipped as already loaded). 100 examples in `make test`
(tests/examples.py: fewer in `make test-fast`, `POUND_EXAMPLES=20` for a longer search).
"""

from __future__ import annotations

import contextlib
import csv
import io
import random
import shutil
from pathlib import Path

import pytest
from examples import examples
from helpers import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.load import connection

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bundle"
FILES = sorted(p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*.csv"))

DATES = st.dates().flatmap(lambda d: st.sampled_from([
    d.isoformat(), d.strftime("%d/%m/%Y"), d.strftime("%d-%m-%Y"), d.strftime("%m/%d/%Y"), d.strftime("%d.%m.%y"),
    d.strftime("%d %b %Y"), d.strftime("%Y%m%d"), d.strftime("%d/%m/%y"), d.isoformat() + "T00:00:00"]))
NUMBERS = st.one_of(st.integers(-10**20, 10**20).map(str), st.floats(allow_nan=True).map(repr),
                    st.decimals(allow_nan=False, places=3).map(str), st.sampled_from(["1,20,000", "₹600", "600/-", "1e3"]))
CELLS = st.one_of(st.text(max_size=40), NUMBERS, DATES, st.just("x" * 200_000), st.just(""),
                  st.sampled_from(['"', "=1+1", "\n", "\r", "\x00", "yes", "no", "void"]))


@st.composite
def mutations(draw):
    """(relative path, new bytes) of one golden file changed one way."""
    rel = draw(st.sampled_from(FILES))
    text = (GOLDEN / rel).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    kind = draw(st.sampled_from(["cell", "cells", "truncate", "bytes", "no_header", "two_headers", "shuffle",
                                 "drop_column"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if kind in ("cell", "cells"):
        for _ in range(1 if kind == "cell" else draw(st.integers(2, 6))):
            r = rng.randrange(len(rows))
            if rows[r]:
                rows[r][rng.randrange(len(rows[r]))] = draw(CELLS)
    elif kind == "truncate":
        data = text.encode("utf-8")
        return rel, data[: draw(st.integers(0, len(data)))]
    elif kind == "bytes":
        data = bytearray(text.encode("utf-8"))
        at = draw(st.integers(0, len(data)))
        return rel, bytes(data[:at]) + draw(st.binary(min_size=1, max_size=30)) + bytes(data[at:])
    elif kind == "no_header":
        rows = rows[1:]
    elif kind == "two_headers":
        rows.insert(rng.randrange(1, len(rows) + 1), rows[0])
    elif kind == "shuffle":
        order = list(range(len(rows[0])))
        rng.shuffle(order)
        rows = [[r[i] if i < len(r) else "" for i in order] for r in rows]
    elif kind == "drop_column":
        c = rng.randrange(len(rows[0]))
        rows = [r[:c] + r[c + 1:] for r in rows]
    out = io.StringIO()
    csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"]))).writerows(rows)
    return rel, out.getvalue().encode("utf-8")


# The module's tests run in one test process, which makes the module's fixture once (spread
# over two processes, each made it).
pytestmark = [pytest.mark.xdist_group("fuzz_bundle")]


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    from pipeline.load.ingest import ingest

    path = tmp_path_factory.mktemp("fuzz") / "kept.duckdb"
    con = connection.connect(path)
    assert not ingest(con, GOLDEN).rejected
    snap = snapshot(con)
    con.close()
    return path, snap


def _ingest(bundle, path) -> tuple[int, str]:
    from pipeline.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["ingest", str(bundle), "--db", str(path), "--wait", "0"])
    return code, err.getvalue()


@settings(max_examples=examples(100), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(mutation=mutations())
def test_a_mutated_file_is_loaded_or_rejected_naming_it_and_a_rejection_changes_nothing(kept, tmp_path_factory,
                                                                                        mutation):
    base, before = kept
    rel, data = mutation
    work = tmp_path_factory.mktemp("case")
    path = work / "work.duckdb"
    shutil.copy(base, path)
    bundle = work / "bundle"
    (bundle / rel).parent.mkdir(parents=True)
    (bundle / rel).write_bytes(data)
    code, err = _ingest(bundle, path)
    assert code in (0, 2), err
    assert "Traceback" not in err and "pound: failed" not in err, err
    if code == 2:
        rejected = [line for line in err.splitlines() if line.startswith("REJECTED ")]
        assert rejected and all(line.startswith(f"REJECTED {rel}") for line in rejected), err
        con = connection.connect(path)
        try:
            assert snapshot(con) == before
        finally:
            con.close()
    shutil.rmtree(work, ignore_errors=True)
