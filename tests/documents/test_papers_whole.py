"""The papers are written whole: the papers, their index.html and, with --pdf,
their PDFs go into OUT as one set (core/staged.py). Killed before the set is marked whole, OUT is
as before; killed while moving it in, the next command that writes OUT finishes it, as after.

On the golden bundle run to 31-12-2026: the earlier set is case G06's papers alone; the new set
is every paper. Compared by content (every file's bytes)."""

from __future__ import annotations

import shutil

import pytest
from helpers import pound_process as _pound


def _content(out):
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(".")}


@pytest.fixture(scope="module")
def sets(golden_db, tmp_path_factory):
    """The new set (every paper) and the earlier one (G06's), each written once for the module by
    `pound documents` in a process of its own: (the new set's folder, the earlier set's) (read only:
    each test kills a writer over a copy of the earlier set's folder)."""
    db = golden_db / "pound.duckdb"
    made = tmp_path_factory.mktemp("papers_whole")
    after, earlier = made / "after", made / "papers"
    assert _pound("documents", "--db", db, "--out", after).returncode == 0
    res = _pound("documents", "--db", db, "--out", earlier, "--case", "G06")
    assert res.returncode == 0, res.stderr
    return after, earlier


@pytest.mark.parametrize("point, outcome", [("papers:written", "before"), ("staged:moving", "after")])
def test_papers_killed_leave_the_earlier_set_or_the_new_one_whole(golden_db, tmp_path, sets, point, outcome):
    db = golden_db / "pound.duckdb"
    after, earlier = sets
    out = tmp_path / "papers"
    shutil.copytree(earlier, out)                  # the earlier set, as pound documents --case G06 left OUT
    before = _content(out)
    assert "index.html" in before and len(_content(after)) > len(before)
    res = _pound("documents", "--db", db, "--out", out, kill_at=point)
    assert res.returncode == -9, res.stderr                  # killed where it was told
    # the next command that writes OUT settles what the killed one left (here one that fails at once)
    res = _pound("documents", "--db", db, "--out", out, "--case", "NO-SUCH-CASE")
    assert res.returncode == 1
    now = _content(out)
    if outcome == "before":
        assert now == before
    else:
        assert {n: b for n, b in now.items() if n in _content(after)} == _content(after)
