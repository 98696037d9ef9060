"""A build reads the closes of the bundle it is given, or else of the bundle where the database
finds it, relative to the database's folder when it was loaded from beside it: an office folder
copied (bundle and database) reads the copy's closes, not the original's (load/closes.py
bundles_bound, load/schema.py bundle_place)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from helpers import office_copy

from pipeline.close import seal
from pipeline.load.schema import bundle_place


def closes(db: Path) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [m for (m,) in con.execute("SELECT month FROM closes ORDER BY month").fetchall()]
    finally:
        con.close()


@pytest.fixture
def office(shared, tmp_path, monkeypatch) -> Path:
    """data/sample's November run with pound month in OFFICE (OFFICE/mysuru, OFFICE/pound.duckdb) and
    closed by "DM": a copy of the office made once a session (helpers.office_copy, as the close tests
    use it); the pages drawn by a stand-in, and the test's own closes printed by one."""
    root = tmp_path / "office"
    office_copy(shared, root, monkeypatch, closed=True)
    monkeypatch.setattr(seal, "print_reports", lambda pages: [])
    monkeypatch.chdir(tmp_path)
    return root


def build(run_cli, root: Path, *more):
    code, _, err = run_cli("build", "--db", root / "pound.duckdb", "--out", root / "built", "--as-of", "2026-11-30",
                           *more)
    assert code == 0, err
    return err


@pytest.mark.parametrize("made_by", ["this version", "an earlier version"])
def test_a_copied_office_folder_builds_against_its_own_closes(office, run_cli, tmp_path, made_by):
    if made_by == "an earlier version":       # loads kept the bundle's full path alone, and no digests
        con = duckdb.connect(str(office / "pound.duckdb"))
        con.execute("ALTER TABLE loads DROP COLUMN bundle_at")
        con.execute("ALTER TABLE loads DROP COLUMN digest")
        con.close()
    copy = tmp_path / "copy"
    shutil.copytree(office, copy)
    # the copy closes October; the original's close of November is taken away (by hand, for the test)
    code, _, err = run_cli("close", "--db", copy / "pound.duckdb", "--month", "2026-10", "--by", "DM", "--bundle",
                           copy / "mysuru")
    assert code == 0, err
    shutil.rmtree(office / "mysuru" / "closes" / "2026-11")
    build(run_cli, copy)
    assert closes(copy / "pound.duckdb") == ["2026-10", "2026-11"]
    build(run_cli, office)
    assert closes(office / "pound.duckdb") == []
    # pound month names its bundle: the same closes
    code, _, err = run_cli("month", copy / "mysuru", "--db", copy / "pound.duckdb", "--month", "2026-11",
                           "--out", copy / "r11")
    assert code == 0, err
    assert closes(copy / "pound.duckdb") == ["2026-10", "2026-11"]


def test_a_close_goes_into_the_bundle_the_database_finds(office, run_cli, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(office, copy)
    # the original's bundle holds every file the copy loaded, but the copy's build reads the copy's bundle
    code, _, err = run_cli("close", "--db", copy / "pound.duckdb", "--month", "2026-10", "--by", "DM", "--bundle",
                           office / "mysuru")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"is not a bundle the database {copy / 'pound.duckdb'} was loaded from (it finds its bundle at " \
           f"{(copy / 'mysuru').resolve()})" in err
    assert not (office / "mysuru" / "closes" / "2026-10").exists()


def test_a_build_given_a_bundle_reads_its_closes(office, run_cli, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(office, copy)
    shutil.rmtree(copy / "mysuru" / "closes" / "2026-11")
    build(run_cli, copy)
    assert closes(copy / "pound.duckdb") == []
    # the original's bundle holds every file the copy loaded: given, its closes are read
    build(run_cli, copy, "--bundle", office / "mysuru")
    assert closes(copy / "pound.duckdb") == ["2026-11"]
    # a bundle the database was not loaded from is refused, in one line, nothing built
    other = tmp_path / "other"
    shutil.copytree(office / "mysuru", other)
    (other / "registers" / "releases.csv").unlink()
    code, _, err = run_cli("build", "--db", copy / "pound.duckdb", "--out", copy / "built", "--bundle", other)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"{other.resolve()} is not a bundle the database {copy / 'pound.duckdb'} was loaded from" in err
    assert closes(copy / "pound.duckdb") == ["2026-11"]


def test_a_bundle_that_is_not_there_is_said(office, run_cli, tmp_path):
    moved = tmp_path / "elsewhere" / "office"
    moved.parent.mkdir()
    shutil.copytree(office, moved, ignore=shutil.ignore_patterns("mysuru"))
    err = build(run_cli, moved)
    assert f"note: {(moved / 'mysuru').resolve()}, a bundle the database was loaded from, is not there" in err
    assert "is not there" not in build(run_cli, office)


def test_where_a_database_keeps_its_bundle(tmp_path):
    home = tmp_path / "office" / "db"
    assert bundle_place(home / "mysuru", home) == "mysuru"
    assert bundle_place(home.parent / "mysuru", home) == "../mysuru"
    assert bundle_place(home, home) == "."
    # a bundle elsewhere is not copied with the database's folder: its full path
    far = tmp_path / "far" / "mysuru"
    assert bundle_place(far, home) == str(far.resolve())
    assert bundle_place(far, None) == str(far.resolve())
