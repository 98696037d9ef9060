"""A bundle sent as a zip (zipped.py): read exactly as its folder; a dangerous or broken zip is
refused with one line, exit 2, and nothing is written anywhere."""

import tempfile
import zipfile

import pytest
from helpers import case, make_bundle

from pipeline.load import connection, zipped

TABLES = ("impoundments", "pounds", "rates", "loads")


def _zip(folder, path, prefix=""):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, prefix + p.relative_to(folder).as_posix())
    return path


def _content(path):
    con = connection.connect(path)
    try:
        return {t: con.execute(f"SELECT * EXCLUDE (loaded_at, bundle_as_of, bundle_at, bundle), bundle FROM {t} ORDER BY ALL"
                               if t == "loads"
                               else f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}
    finally:
        con.close()


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """Python's temporary folder, watched: a zip is unpacked there and the folder is removed after."""
    tmp = tmp_path / "systemp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp


@pytest.mark.parametrize("prefix", ["", "bundle_oct/"], ids=["files at the top", "one folder at the top"])
def test_a_zip_loads_exactly_as_its_folder(tmp_path, run_cli, scratch, prefix):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1"), case("C2", head_count=3)])
    code, _, err = run_cli("ingest", bundle, "--db", tmp_path / "folder.duckdb")
    assert code == 0, err
    packed = _zip(bundle, tmp_path / "bundle.zip", prefix)
    code, out, err = run_cli("ingest", packed, "--db", tmp_path / "zip.duckdb")
    assert code == 0, err
    folder, zipped_ = _content(tmp_path / "folder.duckdb"), _content(tmp_path / "zip.duckdb")
    # the loads table names where the files came from: the folder, or the zip
    assert {r[-1] for r in folder["loads"]} == {str(bundle)} and {r[-1] for r in zipped_["loads"]} == {str(packed)}
    strip = {t: [r[:-1] for r in rows] if t == "loads" else rows for t, rows in folder.items()}
    assert strip == {t: [r[:-1] for r in rows] if t == "loads" else rows for t, rows in zipped_.items()}
    assert "loaded 6 file(s)" in out
    assert list(scratch.iterdir()) == []


def _evil(path, name, data=b"x", compress=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compress) as zf:
        zf.writestr("reference/pounds.csv", "pound_id\n")
        zf.writestr(name, data)


def _locked(path):
    """A zip whose member carries the 'encrypted' flag (zipfile cannot write one with a password)."""
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("registers/impoundments.csv", b"case_id\n")
    data = bytearray(path.read_bytes())
    data[6] |= 0x1                             # the local header's flags
    central = data.index(b"PK\x01\x02")
    data[central + 8] |= 0x1                   # the central directory's flags
    path.write_bytes(bytes(data))


def _truncated(path, tmp_path):
    whole = _zip(make_bundle(tmp_path / "t"), tmp_path / "whole.zip")
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])


CASES = [
    ("climbs out", lambda p, t: _evil(p, "../outside.csv"),
     "holds a file named '../outside.csv', which would be unpacked outside the bundle's folder"),
    ("climbs out deeper", lambda p, t: _evil(p, "registers/../../outside.csv"), "would be unpacked outside"),
    ("absolute path", lambda p, t: _evil(p, "/tmp/outside.csv"), "holds a file named '/tmp/outside.csv'"),
    ("windows drive", lambda p, t: _evil(p, "C:/outside.csv"), "holds a file named 'C:/outside.csv'"),
    ("zip bomb", lambda p, t: _evil(p, "registers/impoundments.csv", b"0" * (8 * 1024**2), zipfile.ZIP_DEFLATED),
     "registers/impoundments.csv would unpack"),
    ("not a zip", lambda p, t: p.write_bytes(b"PK\x03\x04 this is not really a zip" * 20), "is not a readable zip file"),
    ("truncated", _truncated, "is not a readable zip file"),
    ("password", lambda p, t: _locked(p), "is locked with a password (registers/impoundments.csv)"),
]


@pytest.mark.parametrize("name, make, message", CASES, ids=[c[0] for c in CASES])
def test_a_dangerous_or_broken_zip_is_refused_and_nothing_is_written(tmp_path, run_cli, scratch, name, make, message):
    work = tmp_path / "work"
    work.mkdir()
    packed = work / "bundle.zip"
    make(packed, tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for args in (["ingest", packed, "--db", work / "pound.duckdb"], ["run", packed, "--out", work / "out"]):
        code, out, err = run_cli(*args)
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("bundle.zip: ") and message in lines[0], err
        assert "Traceback" not in err
        assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
        assert list(scratch.iterdir()) == []
    assert not (tmp_path / "outside.csv").exists()


def test_the_size_limit_counts_every_member(tmp_path, run_cli, scratch, monkeypatch):
    monkeypatch.setattr(zipped, "MAX_UNPACKED", 1000)
    with zipfile.ZipFile(tmp_path / "big.zip", "w") as zf:
        for i in range(3):
            zf.writestr(f"registers/impoundments_{i}.csv", "x" * 400)
    code, _, err = run_cli("ingest", tmp_path / "big.zip", "--db", tmp_path / "pound.duckdb")
    assert code == 2 and "would unpack to more than" in err
    assert not (tmp_path / "pound.duckdb").exists()


def test_a_zip_under_the_limits_is_not_refused(tmp_path, scratch):
    """The near miss of the bomb: a member that shrinks a lot but is small, under RATIO_FLOOR."""
    with zipfile.ZipFile(tmp_path / "ok.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("registers/x.csv", b"0" * (512 * 1024))
        zf.writestr("__MACOSX/._x.csv", b"junk")
    with zipped.unpacked(tmp_path / "ok.zip") as folder:
        assert (folder / "registers" / "x.csv").stat().st_size == 512 * 1024
        assert not (folder / "__MACOSX").exists()
    assert list(scratch.iterdir()) == []


def test_a_file_that_is_neither_folder_nor_zip_is_one_line(tmp_path, run_cli):
    (tmp_path / "bundle.rar").write_bytes(b"x")
    code, _, err = run_cli("ingest", tmp_path / "bundle.rar", "--db", tmp_path / "p.duckdb")
    assert code == 1 and "is not a folder or a .zip file" in err and len(err.strip().splitlines()) == 1


def test_every_command_given_a_bundle_refuses_a_file_neither_folder_nor_zip_in_the_same_words(tmp_path, run_cli):
    """One check (load/zipped.py: check_bundle) for ingest, run, month and template."""
    (tmp_path / "bundle.rar").write_bytes(b"x")
    said = set()
    for args in (("ingest", tmp_path / "bundle.rar", "--db", tmp_path / "p.duckdb"),
                 ("run", tmp_path / "bundle.rar", "--out", tmp_path / "out"),
                 ("month", tmp_path / "bundle.rar", "--db", tmp_path / "p.duckdb", "--month", "2026-11"),
                 ("template", "--bundle", tmp_path / "bundle.rar", "--out", tmp_path / "t.xlsx")):
        code, _, err = run_cli(*args)
        assert code == 1 and len(err.strip().splitlines()) == 1, (args, err)
        said.add(err.strip())
    assert said == {f"pound: {tmp_path / 'bundle.rar'} is not a folder or a .zip file; give the bundle folder "
                    "(reference/, registers/, ledgers/) or a zip of it"}
