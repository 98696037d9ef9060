"""A busy database is known by DuckDB's exception type and the file's lock held by another process
(core/locks.py is_lock_error), never by the words of the message alone."""

from __future__ import annotations

import subprocess
import sys

import duckdb
import pytest

from pipeline.core.errors import DatabaseBusy
from pipeline.core.locks import is_lock_error, opened

HOLD = "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); time.sleep(30)"


def test_a_database_another_process_holds_is_busy(tmp_path):
    db = tmp_path / "held.duckdb"
    duckdb.connect(str(db)).close()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(duckdb.IOException) as raised:
            duckdb.connect(str(db))
        assert is_lock_error(raised.value, db)
        with pytest.raises(DatabaseBusy):
            opened(lambda: duckdb.connect(str(db)), db, wait=0.3)
    finally:
        holder.kill()
        holder.wait()
    opened(lambda: duckdb.connect(str(db)), db, wait=0.3).close()      # let go: opened at once


def test_words_alone_do_not_make_a_database_busy(tmp_path):
    db = tmp_path / "free.duckdb"
    duckdb.connect(str(db)).close()
    assert not is_lock_error(RuntimeError("Could not set lock on file"), db)
    assert not is_lock_error(duckdb.IOException("IO Error: Could not set lock on file"), db)
