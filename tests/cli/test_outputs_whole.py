"""pound run|build --out OUT replace an earlier run's exports whole: a failed or killed run leaves
the earlier set exactly as it was."""

import os
import signal
import subprocess
import sys
import time

import pytest

AS_OF = "2026-11-30"


def _set(out):
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


@pytest.fixture
def earlier(tmp_path, golden_bundle, shared):
    """The folder a `pound run` of the golden bundle wrote (a copy of the session's, tests/shared.py)."""
    return shared.run(golden_bundle, AS_OF, tmp_path / "out")


def test_a_build_that_fails_while_writing_leaves_the_earlier_set(earlier, run_cli, monkeypatch):
    before = _set(earlier)
    from pipeline.outputs import workbook

    def broken(con, path):
        raise OSError("disk full")        # after every CSV export of the new set was written
    monkeypatch.setattr(workbook, "write_workbook", broken)
    code, _, err = run_cli("build", "--db", earlier / "pound.duckdb", "--out", earlier, "--as-of", "2026-10-31")
    assert code == 1 and "disk full" in err
    after = _set(earlier)
    assert after.keys() == before.keys()
    assert {k: v for k, v in after.items() if k != "pound.duckdb"} == \
           {k: v for k, v in before.items() if k != "pound.duckdb"}
    assert [p for p in earlier.iterdir() if p.name.startswith(".")] == []


def test_a_build_that_succeeds_replaces_every_export(earlier, run_cli):
    before = _set(earlier)
    code, _, err = run_cli("build", "--db", earlier / "pound.duckdb", "--out", earlier, "--as-of", "2026-10-31")
    assert code == 0, err
    after = _set(earlier)
    assert after.keys() == before.keys()
    assert b"2026-10-31" in after["parameters.toml"] and b"2026-10-31" not in before["parameters.toml"]


def test_a_run_killed_midway_leaves_the_earlier_set(earlier, golden_bundle, tmp_path, run_cli):
    before = _set(earlier)
    env = dict(os.environ, POUND_QUIET="1")
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(golden_bundle), "--out", str(earlier),
                             "--as-of", "2026-10-31"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # killed once its new database is being written in the staging folder, long before its exports are whole
        while not list(earlier.glob(".pound-next-*/pound.duckdb")):
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.005)       # looked for every few milliseconds, leaving the processor to the run
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    # the lock file of the killed run is left (no longer held: core/locks.py); the next run removes it
    assert {k: v for k, v in _set(earlier).items() if k != "pound.duckdb.lock"} == before
    # the next run (in this process: the process killed is the one before it) removes what the killed one
    # left and replaces the set whole
    code, _, err = run_cli("run", golden_bundle, "--out", earlier, "--as-of", "2026-10-31")
    assert code == 0, err
    assert [p for p in earlier.iterdir() if p.name.startswith(".")] == []
    assert _set(earlier).keys() == before.keys()
