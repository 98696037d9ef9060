"""An output folder replaced as a set (core/staged.py): all of a run's files, or none."""

import os

import pytest

from pipeline.core.staged import COMPLETE, OWNER, Staged, recover


def _earlier(out):
    out.mkdir()
    for name in ("a.csv", "b.csv", "keep.txt"):
        (out / name).write_text(f"earlier {name}")
    return {p.name: p.read_text() for p in out.iterdir()}


def _files(out):
    return {p.name: p.read_text() for p in out.iterdir() if not p.name.startswith(".")}


def test_a_committed_set_replaces_the_earlier_one_and_leaves_other_files(tmp_path):
    out = tmp_path / "out"
    _earlier(out)
    with Staged(out) as st:
        (st.folder / "a.csv").write_text("new a")
        (st.folder / "b.csv").write_text("new b")
        moved = st.commit()
    assert sorted(p.name for p in moved) == ["a.csv", "b.csv"]
    assert _files(out) == {"a.csv": "new a", "b.csv": "new b", "keep.txt": "earlier keep.txt"}
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


def test_a_failure_before_the_commit_leaves_the_earlier_set_exactly(tmp_path):
    out = tmp_path / "out"
    before = _earlier(out)
    with pytest.raises(RuntimeError), Staged(out) as st:
        (st.folder / "a.csv").write_text("half of a new set")
        raise RuntimeError("failed while writing b.csv")
    assert {p.name: p.read_text() for p in out.iterdir()} == before


def test_a_run_that_writes_nothing_leaves_no_folder(tmp_path):
    with Staged(tmp_path / "new"):
        pass
    assert not (tmp_path / "new").exists()


def test_a_marked_set_half_moved_by_a_killed_run_is_finished_by_the_next(tmp_path):
    out = tmp_path / "out"
    _earlier(out)
    stage = out / ".pound-next-killed"
    stage.mkdir()
    (stage / "b.csv").write_text("new b")            # a.csv was already moved when the run was killed
    (out / "a.csv").write_text("new a")
    (stage / COMPLETE).write_text("")
    recover(out)
    assert _files(out) == {"a.csv": "new a", "b.csv": "new b", "keep.txt": "earlier keep.txt"}
    assert not stage.exists()


def test_an_unmarked_set_of_a_process_that_is_gone_is_removed_and_one_still_running_is_kept(tmp_path):
    out = tmp_path / "out"
    before = _earlier(out)
    gone, running = out / ".pound-next-gone", out / ".pound-next-running"
    for stage, pid in ((gone, 2**22 + 12345), (running, os.getpid())):
        stage.mkdir()
        (stage / "a.csv").write_text("half")
        (stage / OWNER).write_text(str(pid))
    recover(out)
    assert not gone.exists() and running.exists()
    assert _files(out) == {k: v for k, v in before.items()}
