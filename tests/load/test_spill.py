"""A database pound writes has a memory limit and spills beside itself; a killed build's spill is
cleared when the database is next opened for writing."""

from pipeline.load import connection


def test_a_written_database_spills_beside_itself_under_a_limit(tmp_path, monkeypatch):
    path = tmp_path / "pound.duckdb"
    con = connection.connect(path)
    limit, temp = con.execute("SELECT current_setting('memory_limit'), current_setting('temp_directory')").fetchone()
    assert temp == f"{path}.tmp" and limit.endswith("GiB") and float(limit.split()[0]) <= 2
    assert "memory_limit" not in connection.options() and "memory_limit" not in connection.options(":memory:")
    monkeypatch.setenv("POUND_MEMORY_LIMIT", "1GB")
    assert connection.options(path)["memory_limit"] == "1GB"


def test_a_killed_builds_spill_is_cleared(tmp_path):
    path = tmp_path / "pound.duckdb"
    connection.connect(path).close()
    spilled = tmp_path / "pound.duckdb.tmp"
    spilled.mkdir()
    (spilled / "duckdb_temp_999999999_storage_DEFAULT-0.tmp").write_bytes(b"x" * 10)
    (spilled / "notes.txt").write_text("not DuckDB's")
    connection.connect(path).close()
    assert sorted(p.name for p in spilled.iterdir()) == ["notes.txt"]
