"""Several commands, one database: a second writer waits up to --wait, then stops with one line;
readers open the database read-only. The database is held by a real second process (within one
process DuckDB shares the open file, so no lock would be met)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import case, make_bundle

from pipeline.core.errors import PoundError
from pipeline.read.database import connect

HOLD = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "read")
print("held", flush=True)
sys.stdin.readline()
con.close()
"""


class Holder:
    def __init__(self, path, mode):
        self.proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), mode], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "held"

    def release(self):
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        self.proc.wait()


@pytest.fixture(scope="module")
def built(shared, golden_bundle_path):
    return shared.run(golden_bundle_path, "2026-11-30") / "pound.duckdb"


@pytest.fixture(scope="module")
def golden_bundle_path():
    return Path(__file__).resolve().parents[1] / "golden" / "bundle"


def test_a_second_writer_waits_then_stops_with_one_line(built, tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "more", reference=False, impoundments=[case("LOCK-1")])
    holder = Holder(built, "write")
    try:
        for args in (["ingest", bundle, "--db", built, "--wait", "0.2"],
                     ["build", "--db", built, "--out", tmp_path / "o", "--wait", "0"],
                     # the reading commands say the same, in the same one line
                     ["report", "--db", built, "--month", "2026-10", "--out", tmp_path / "o", "--wait", "0"],
                     ["workbook", "--db", built, "--out", tmp_path / "w.xlsx", "--wait", "0"],
                     ["export", "--db", built, "--out", tmp_path / "o", "--wait", "0"],
                     ["documents", "--db", built, "--out", tmp_path / "o", "--wait", "0"],
                     ["validate", "--db", built, "--wait", "0"]):
            code, _, err = run_cli(*args)
            assert code == 1, err
            last = err.strip().splitlines()[-1]
            assert last.startswith(f"pound: database {built} is in use by another program")
            assert "--wait SECONDS" in last and "Traceback" not in err and "IOException" not in err
        # a reader is refused too while a writer holds the file, in the same words
        with pytest.raises(PoundError, match="is in use by another program"):
            connect(built, wait=0)
    finally:
        holder.release()
    assert not (tmp_path / "o").exists()


def test_readers_share_the_database_and_a_writer_waits_for_them(built, tmp_path, run_cli):
    holder = Holder(built, "read")
    try:
        con = connect(built, wait=0)          # a second reader, while the first holds it
        assert con.execute("SELECT count(*) FROM case_accounts").fetchone()[0] > 0
        con.close()
        code, _, err = run_cli("build", "--db", built, "--out", tmp_path / "o", "--wait", "0")
        assert code == 1 and "is in use by another program" in err
    finally:
        holder.release()


def test_a_waiting_writer_goes_on_when_the_holder_lets_go(built, tmp_path):
    holder = Holder(built, "write")
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--db", str(built), "--out",
                             str(tmp_path / "o"), "--as-of", "2026-11-30", "--wait", "600"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, POUND_QUIET="1"))
    try:
        first = proc.stderr.readline()
        assert first.startswith(f"waiting up to 600 s for database {built}"), first
    finally:
        holder.release()
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert (tmp_path / "o" / "findings.csv").exists()


# ---- one lock for every door: a step holds the database whole (core/locks.py, holding) ----

HOLD_STEP = """
import json, os, subprocess, sys
from pipeline.core.locks import holding
with holding(sys.argv[1], 0, sys.argv[2]):
    print("held", flush=True)
    for line in sys.stdin:              # each line a command this step starts as its own child
        if not line.strip():
            break
        done = subprocess.run([sys.executable, "-m", "pipeline", *json.loads(line)], capture_output=True, text=True)
        print(json.dumps([done.returncode, done.stderr]), flush=True)
"""
DESK_REVIEW = "the desk's \"Make the month's review\""


class Step:
    """A process holding the database as a desk step or a `pound` command does, for the whole step."""

    def __init__(self, db, what):
        self.proc = subprocess.Popen([sys.executable, "-c", HOLD_STEP, str(db), what], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=_alone())
        assert self.proc.stdout.readline().strip() == "held"

    def child(self, *args) -> tuple[int, str]:
        """`pound ARGS` started by the step itself, as the review starts its kernels."""
        import json

        self.proc.stdin.write(json.dumps([str(a) for a in args]) + "\n")
        self.proc.stdin.flush()
        return tuple(json.loads(self.proc.stdout.readline()))

    def release(self):
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        self.proc.wait(30)


def _alone() -> dict:
    """The environment of a process no step started (this test process holds nothing; said anyway)."""
    return {k: v for k, v in dict(os.environ, POUND_QUIET="1").items() if k != "POUND_DB_HELD"}


def _pound(*args, timeout=120) -> tuple[int, str, str, float]:
    import time

    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], capture_output=True, text=True,
                          env=_alone(), timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - t0


@pytest.fixture
def own_copy(built, tmp_path):
    import shutil

    copy = tmp_path / "db" / "pound.duckdb"
    copy.parent.mkdir()
    shutil.copyfile(built, copy)
    return copy


def test_ingest_and_build_wait_for_a_desk_step_then_are_refused_in_one_line_naming_it(own_copy, tmp_path):
    import hashlib

    bundle = make_bundle(tmp_path / "more", reference=False, impoundments=[case("LOCK-2")])
    before = hashlib.sha256(own_copy.read_bytes()).hexdigest()
    step = Step(own_copy, DESK_REVIEW)
    try:
        for args in (["ingest", bundle, "--db", own_copy], ["build", "--db", own_copy, "--out", tmp_path / "o",
                                                             "--as-of", "2026-10-31"]):
            code, out, err, took = _pound(*args, "--wait", "1")
            assert code == 1 and took >= 1, err
            waited, refused = err.strip().splitlines()           # the note that it waits, then one line
            assert waited.startswith(f"waiting up to 1 s for database {own_copy}, which {DESK_REVIEW} (pid {step.proc.pid}")
            assert refused.startswith(f"pound: database {own_copy} is in use by {DESK_REVIEW} "
                                      f"(pid {step.proc.pid}, since ")
            assert refused.endswith("and stayed so for 1 s; run this again when it has finished, give a longer "
                                    "--wait SECONDS, or use another --db")
        # told not to wait, one line alone, at once
        code, out, err, took = _pound("build", "--db", own_copy, "--out", tmp_path / "o", "--wait", "0")
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err and took < 30
        assert f"is in use by {DESK_REVIEW} (pid {step.proc.pid}" in err
    finally:
        step.release()
    assert hashlib.sha256(own_copy.read_bytes()).hexdigest() == before and not (tmp_path / "o").exists()
    assert not Path(f"{own_copy}.lock").exists()          # the step let go, and left no lock file


def test_its_twin_with_no_step_holding_they_run_at_once_without_waiting(own_copy, tmp_path):
    bundle = make_bundle(tmp_path / "more", reference=False, impoundments=[case("LOCK-3", pound_id="PA", owner_id="M")])
    for args in (["ingest", bundle, "--db", own_copy], ["build", "--db", own_copy, "--out", tmp_path / "o",
                                                         "--as-of", "2026-10-31"]):
        code, out, err, took = _pound(*args, "--wait", "1")
        assert code == 0, err
        assert "waiting" not in err and "in use" not in err
        if args[0] == "ingest":
            assert out.startswith("loaded 1 file(s), 1 new row(s)"), out
    assert (tmp_path / "o" / "findings.csv").exists() and not Path(f"{own_copy}.lock").exists()


def test_a_command_the_step_starts_itself_opens_the_database_another_is_refused(own_copy, tmp_path):
    """The processes a step starts (the review's kernels, a command) work inside its hold; a
    process the step did not start waits as any other."""
    step = Step(own_copy, "pound month")
    try:
        code, err = step.child("export", "--db", own_copy, "--out", tmp_path / "child", "--wait", "0")
        assert code == 0, err
        assert (tmp_path / "child").is_dir() and any((tmp_path / "child").iterdir())
        code, out, err, _ = _pound("export", "--db", own_copy, "--out", tmp_path / "other", "--wait", "0")
        assert code == 1 and f"is in use by pound month (pid {step.proc.pid}" in err
    finally:
        step.release()
    assert not (tmp_path / "other").exists()


def test_a_killed_holders_lock_file_means_nothing(own_copy, tmp_path):
    step = Step(own_copy, "pound build")
    step.proc.kill()
    step.proc.wait()
    assert Path(f"{own_copy}.lock").exists()                 # left behind by the kill ...
    code, out, err, _ = _pound("export", "--db", own_copy, "--out", tmp_path / "o", "--wait", "0")
    assert code == 0, err                                     # ... and taken at once by the next command
    assert not Path(f"{own_copy}.lock").exists()


def test_a_link_put_where_the_lock_file_goes_is_refused_and_its_target_left_alone(own_copy, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    Path(f"{own_copy}.lock").symlink_to(victim)
    code, out, err, _ = _pound("export", "--db", own_copy, "--out", tmp_path / "o", "--wait", "0")
    assert code == 1 and err.count("\n") == 1 and "is a symbolic link" in err
    assert victim.read_text() == "keep me" and not (tmp_path / "o").exists()


def test_a_nested_hold_in_one_thread_goes_on_another_thread_waits_then_is_refused(tmp_path):
    import threading

    from pipeline.core.errors import DatabaseBusy
    from pipeline.core.locks import holding

    db = tmp_path / "pound.duckdb"
    said: list[str] = []

    def steps():
        with holding(db, 0, "the outer step"):
            with holding(db, 0, "a step inside it"):              # the same thread: no deadlock
                said.append("nested")

                def other():
                    try:
                        with holding(db, 0.2, "another thread"):
                            said.append("other got it")
                    except DatabaseBusy as exc:
                        said.append(exc.holder)
                t = threading.Thread(target=other)
                t.start()
                t.join(10)
            assert Path(f"{db}.lock").exists()                   # still held by the outer step
        with holding(db, 0, "another thread"):                   # its twin: once let go, taken at once
            said.append("then got it")

    t = threading.Thread(target=steps, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), "a nested hold deadlocked"
    assert said[0] == "nested" and said[1].startswith(f"the outer step (pid {os.getpid()}, since ")
    assert said[2:] == ["then got it"] and not Path(f"{db}.lock").exists()
