"""One action at a time, in the browser: two tabs of the desk, and a `pound` command on the same
database. The real load is held at its first step (it holds the database meanwhile); the first
tab shows its progress, counting the seconds, and the buttons wait; the second tab, opened
before, presses another button and is told the database is busy; a command that will not wait
is refused, one that waits runs once the load has finished."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("desk")]
MONTH = "2026-11"


def test_two_tabs_and_a_command_one_action_at_a_time(desk_of, browser, monkeypatch):
    from axe import describe, violations

    from pipeline.desk import actions

    held, release = threading.Event(), threading.Event()
    step = actions.Steps.step

    def held_step(self, text):                     # the load's first step waits for the test
        step(self, text)
        if not held.is_set():
            held.set()
            release.wait(120)

    monkeypatch.setattr(actions.Steps, "step", held_step)
    d = desk_of()
    first, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={"bypass_csp": True})
    second = first.context.new_page()               # a second tab of the same browser
    second.goto(d.url + f"?month={MONTH}")
    try:
        first.get_by_role("button", name="Load the registers", exact=True).click()
        assert held.wait(60)
        first.wait_for_selector("text=Working: Load the registers")
        # progress: the step, and the seconds counted while it lasts (desk.js asks each second)
        assert first.inner_text("#step") and first.inner_text("#state-h") == f"{MONTH}: not loaded"
        before = int(first.inner_text("#elapsed"))
        first.wait_for_function(f"Number(document.getElementById('elapsed').textContent) >= {before + 2}", timeout=15000)
        assert first.get_by_role("button", name="Make the month's review", exact=True).is_disabled()
        found = violations(first)
        assert found == [], f"the desk at work:\n{describe(found)}"

        # the second tab, opened before the load began: its button is refused, the database is busy
        second.get_by_role("button", name="Make the month's review", exact=True).click()
        second.wait_for_selector("#refused")
        assert second.inner_text("#refused").startswith('the database is busy: "Load the registers" is running')
        assert d.desk.job.action == "load"

        # a command on the same database: refused when told not to wait ...
        # (a process this one starts while the desk holds the database counts as the desk's own: not this one)
        alone = {k: v for k, v in os.environ.items() if k != "POUND_DB_HELD"}
        cli = [sys.executable, "-m", "pipeline", "build", "--db", str(d.places.db), "--out", str(d.places.out / "cli")]
        refused = subprocess.run([*cli, "--wait", "0"], capture_output=True, text=True, cwd=ROOT, timeout=120, env=alone)
        assert refused.returncode == 1 and "is in use by the desk's \"Load the registers\"" in refused.stderr
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr        # one line
        # ... and, waiting, it runs once the load has let the database go
        waiting = subprocess.Popen([*cli, "--wait", "120"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                   env=alone)
        first.wait_for_timeout(2000)            # (the pages' requests pass through playwright: wait through it)
        assert waiting.poll() is None and not (d.places.out / "cli").exists()
    finally:
        release.set()
    # the first tab shows the load's result by itself once it is done
    first.bring_to_front()
    first.wait_for_selector("text=Done: Load the registers", timeout=120000)
    assert d.desk.job.error is None
    deadline = time.monotonic() + 300
    while waiting.poll() is None and time.monotonic() < deadline:
        first.wait_for_timeout(500)
    out, err = waiting.communicate(timeout=10)
    assert waiting.returncode == 0, err
    assert "loaded 16 file(s)" in first.inner_text("#progress")
    assert first.get_by_role("button", name="Make the month's review", exact=True).is_enabled()
    assert errors == []
