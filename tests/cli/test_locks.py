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
