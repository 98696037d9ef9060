"""A close stopped part-way, by an interrupt or by kill -9 (which runs no clean-up), leaves no close
folder; a hidden half folder is no close, and the next close of the month succeeds and sweeps it.
On the golden bundle closed as in test_close.py (the months closed here are July to September)."""

from __future__ import annotations

import pytest
from helpers import fake_reports
from test_close import AS_OF, read

from pipeline.close import seal


@pytest.mark.parametrize("where", ["extracts", "review", "reports", "seal"])
def test_a_close_that_dies_midway_leaves_no_folder_and_the_next_succeeds(closed, run_cli, monkeypatch, where):
    bundle, db = closed
    month = "2026-08"

    def boom(*a, **k):
        raise KeyboardInterrupt          # as an interrupt stops it: nothing after this point runs

    target = {"extracts": "_write_extracts", "review": "write_review_workbook", "reports": "render_reports",
              "seal": "sha256"}[where]
    with monkeypatch.context() as mp:
        mp.setattr(seal, "render_reports", fake_reports)
        mp.setattr(seal, target, boom)
        code, _, err = run_cli("close", "--db", db, "--month", month, "--by", "DM", "--bundle", bundle)
    assert code == 1 and "interrupted" in err
    assert not [p for p in (bundle / "closes").iterdir() if p.name.startswith((month, "." + month))]


KILLER = """
import os, signal, sys
from pathlib import Path
from pipeline.close import seal

point = sys.argv[1]

def die(*a, **k):
    os.kill(os.getpid(), signal.SIGKILL)

def pages(db, month, district, out, sealing=None, sealed_id=None, kept=None):
    for name in ("monthly_review", "reconciliation", "trends"):
        Path(out, f"{name}_{month}.html").write_text(f"<html>page {sealed_id}</html>", encoding="utf-8")
        if point == "reports":
            die()
    return []

seal.render_reports = pages
if point == "review":
    seal.write_review_workbook = die
if point == "rename":
    seal.os.rename = die
from pipeline.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_kill_9_during_a_close_leaves_no_folder_and_the_next_close_succeeds(closed, run_cli, fake):
    import signal
    import subprocess
    import sys

    bundle, db = closed
    month = "2026-07"
    for point in ("review", "reports", "rename"):
        proc = subprocess.run([sys.executable, "-c", KILLER, point, "close", "--db", str(db), "--month", month,
                               "--by", "DM", "--bundle", str(bundle)], capture_output=True, text=True)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        assert not (bundle / "closes" / month).exists()
    code, out, err = run_cli("close", "--db", db, "--month", month, "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    assert not (bundle / "closes" / f".{month}.partial").exists()
    code, _, _ = run_cli("verify", bundle / "closes" / month)
    assert code == 0


def test_a_half_folder_left_by_kill_9_is_ignored_and_swept(closed, run_cli, fake, tmp_path):
    """kill -9 runs no clean-up: the hidden folder it leaves is no close, and the next close clears it."""
    bundle, db = closed
    half = bundle / "closes" / ".2026-09.partial"
    half.mkdir()
    (half / "monthly_accounts.csv").write_text("half", encoding="utf-8")
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err
    assert read(tmp_path / "out" / "adjustments.csv") == []
    code, out, err = run_cli("close", "--db", db, "--month", "2026-09", "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    assert out.strip() == str(bundle / "closes" / "2026-09")
    assert not half.exists()
    code, _, _ = run_cli("verify", bundle / "closes" / "2026-09")
    assert code == 0
