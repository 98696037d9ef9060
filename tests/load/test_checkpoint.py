"""db.checkpointing: a small run's database is written into its file while its exports are
written (pipeline/cli/data.py), and a failure of that write is not lost."""

import duckdb
import pytest

from pipeline.load import db


def _wal(path):
    wal = path.with_name(path.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.mark.parametrize("behind", [True, False])
def test_the_changes_are_in_the_file_when_the_block_ends_and_reads_go_on_meanwhile(tmp_path, behind):
    path = tmp_path / "pound.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(100000)")
    assert _wal(path) > 0
    with db.checkpointing(con, behind=behind):
        assert con.execute("SELECT sum(i) FROM t").fetchone()[0] == 4999950000
    # behind: written into the file (the log emptied); otherwise left for the close
    assert (_wal(path) == 0) is behind
    con.close()
    assert duckdb.connect(str(path), read_only=True).execute("SELECT count(*) FROM t").fetchone()[0] == 100000


class _Failing:
    def cursor(self):
        return self

    def execute(self, sql):
        raise duckdb.IOException("disk full")

    def close(self):
        pass


def test_a_checkpoint_that_fails_is_raised_when_the_block_ends():
    read = []
    with pytest.raises(duckdb.IOException, match="disk full"), db.checkpointing(_Failing()):
        read.append("the exports")
    assert read == ["the exports"]
