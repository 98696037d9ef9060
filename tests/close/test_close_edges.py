"""A close's edges: a close.json with a key missing or a folder under closes/ without a
close.json is refused in one line naming the file and what was expected, by the build and by
verify alike; the close in force found once (load/closes.py); a signed scan added seal first.

On the golden bundle (accounts drawn up to 31-12-2026; tests/close/test_close.py tells its November).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_close import AS_OF, fake_reports, fresh

from pipeline.close import seal


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(seal, "render_reports", fake_reports)


def _close(run_cli, bundle, db, *more):
    code, out, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle, *more)
    assert code == 0, err
    return Path(out.strip())


@pytest.mark.parametrize("key", ["closed_at", "as_of", "month", "closed_by"])
def test_a_close_json_with_a_key_missing_is_refused_in_one_line_naming_the_file(closed_golden, tmp_path, key):
    """The refusal is read_close's (load/closes.py), which the build and verify both read a close by:
    tried on a sealed close.json, no build."""
    from pipeline.core.errors import PoundError
    from pipeline.load.closes import read_close

    folder = tmp_path / "2026-11"
    folder.mkdir()
    record = json.loads((closed_golden / "bundle" / "closes" / "2026-11" / "close.json").read_text(encoding="utf-8"))
    path = folder / "close.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert read_close(folder)["month"] == "2026-11"                 # the near miss: intact, read
    del record[key]
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(PoundError) as refused:
        read_close(folder)
    said = str(refused.value)
    assert len(said.splitlines()) == 1 and str(path) in said and f"key '{key}' is missing; expected" in said


def test_a_close_json_with_a_key_missing_is_refused_by_build_and_verify_alike(closed, tmp_path, run_cli, fake):
    bundle, db = closed
    folder = bundle / "closes" / "2026-11"
    path = folder / "close.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    del record["closed_at"]
    path.write_text(json.dumps(record), encoding="utf-8")
    for args in (("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF),
                 ("verify", folder, "--bundle", bundle)):
        code, out, err = run_cli(*args)
        assert code == 1, (args, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "KeyError" not in err
        assert str(path) in err and "key 'closed_at' is missing; expected" in err


def test_a_folder_under_closes_without_close_json_is_refused_in_one_line(shared, tmp_path, run_cli, fake):
    bundle, db = fresh(shared, tmp_path)
    (bundle / "closes" / "scans").mkdir(parents=True)
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "scans holds no close.json" in err and "move the folder out of closes/" in err
    # the near miss: a hidden folder (a close being written) is passed over
    (bundle / "closes" / "scans").rename(bundle / "closes" / ".scans")
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err


def test_the_close_in_force_is_the_one_closed_last_and_a_scan_given_later_goes_to_it(shared, tmp_path, run_cli,
                                                                                        fake):
    from pipeline import steps
    from pipeline.load.closes import closes_of, in_force

    bundle, db = fresh(shared, tmp_path)
    first = _close(run_cli, bundle, db)
    assert in_force(bundle, "2026-10") is None and in_force(bundle, "2026-11", "D1") is None     # the near misses
    time.sleep(1.1)                          # closed_at is kept to the second
    again = _close(run_cli, bundle, db, "--reopen", "a late entry")
    assert again.name == "2026-11_r2"
    assert [f for f, _ in closes_of(bundle, "2026-11")] == [first, again]
    assert in_force(bundle, "2026-11")[0] == again
    assert steps.state(db, "2026-11", bundle).close_folder == again
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(b"%PDF-1.4 the signed page\n")
    done = steps.close(db, bundle, "2026-11", "DM", signed=scan)
    assert done.added == again / "signed_page.pdf" and done.folder == again
    assert not (first / "signed_page.pdf").exists()
    assert sorted(p.name for p in (bundle / "closes").iterdir()) == ["2026-11", "2026-11_r2"]


def _pound(*args, kill_at=None):
    env = dict(os.environ, POUND_QUIET="1")
    env.pop("POUND_KILL_AT", None)
    if kill_at:
        env["POUND_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], env=env, capture_output=True, text=True)


def test_a_scan_added_and_killed_between_its_seal_and_the_scan_is_completed_by_the_same_scan(shared, tmp_path,
                                                                                               run_cli, fake):
    bundle, db = fresh(shared, tmp_path)
    folder = _close(run_cli, bundle, db)
    scan, other = tmp_path / "scan.pdf", tmp_path / "other.pdf"
    scan.write_bytes(b"%PDF-1.4 the signed page\n")
    other.write_bytes(b"%PDF-1.4 another page\n")
    close = ("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle, "--signed")
    res = _pound(*close, scan, kill_at="signed:sealed")
    assert res.returncode == -9, res.stderr
    assert (folder / "signed.json").is_file() and not (folder / "signed_page.pdf").exists()
    code, _, err = run_cli("verify", folder)
    assert code == 2 and "missing: signed_page.pdf" in err
    # another scan does not complete the seal; the scan it seals does
    code, _, err = run_cli(*close, other)
    assert code == 1 and "only the scan it seals" in err and not (folder / "signed_page.pdf").exists()
    code, out, err = run_cli(*close, scan)
    assert code == 0, err
    assert (folder / "signed_page.pdf").read_bytes() == scan.read_bytes()
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "intact" in out
    # and once whole, a second scan is refused
    code, _, err = run_cli(*close, other)
    assert code == 1 and "already holds a signed page" in err


def test_a_close_is_not_sealed_through_a_link_for_closes(shared, tmp_path, run_cli, fake):
    # the bundle's closes/ a link to a folder elsewhere: the close is refused in one line and nothing
    # is written there; its twin, the folder itself, takes the close
    bundle, db = fresh(shared, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (bundle / "closes").symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run_cli("close", "--db", db, "--month", "2026-10", "--by", "DM", "--bundle", bundle)
    assert code == 1 and "closes is a link to another folder" in err and list(elsewhere.iterdir()) == []
    (bundle / "closes").unlink()
    code, _, err = run_cli("close", "--db", db, "--month", "2026-10", "--by", "DM", "--bundle", bundle)
    assert code == 0 and (bundle / "closes" / "2026-10" / "close.json").is_file(), err
