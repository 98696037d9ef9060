"""The desk and the database's lock (core/locks.py). Fifty loads asked at once on a served desk
(each opens the database read-write) and page reads (read-only) interleaved, from threads, over HTTP
to the threaded werkzeug server: no step that was accepted fails for another request's connection
(DuckDB refuses two configurations of one file in one process), each POST either runs its step or is
told the database is busy (409). An action while a `pound` command holds the database ends busy,
naming the command; a link where the lock file goes is said on the page in one line."""

from __future__ import annotations

import http.client
import random
import re
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MONTH = "2026-11"
POSTS, READS, WORKERS, BOUND = 50, 50, 12, 240    # loads asked, page reads, threads sending them, seconds for all


def _send(d, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
    con = http.client.HTTPConnection("127.0.0.1", d.port, timeout=120)
    try:
        data = urllib.parse.urlencode(body) if body is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
        con.request(method, path, body=data, headers=headers)
        r = con.getresponse()
        return r.status, r.read().decode("utf-8", "replace")
    finally:
        con.close()


def test_fifty_loads_asked_at_once_no_accepted_step_fails_for_another_ones_connection(desk_of, monkeypatch):
    from pipeline.desk import jobs as desk_app

    ran: list[BaseException | None] = []
    real_run = desk_app._run

    def counted(*args, **kw):                  # every step the desk ran, and what it raised
        try:
            result = real_run(*args, **kw)
        except BaseException as exc:
            ran.append(exc)
            raise
        ran.append(None)
        return result

    monkeypatch.setattr(desk_app, "_run", counted)
    d = desk_of()
    token = re.search(r'name="token" value="([^"]+)"', _send(d, "GET", f"/?month={MONTH}")[1]).group(1)
    rng = random.Random(49)
    asks = [(what, rng.uniform(0, 3)) for what in ["load"] * POSTS + ["page"] * READS]
    rng.shuffle(asks)

    def ask(asked: tuple[str, float]) -> tuple[str, int, str]:
        what, after = asked
        time.sleep(after)                     # spread over three seconds: steps and reads interleave
        if what == "page":
            return (what, *_send(d, "GET", f"/?month={MONTH}"))
        return (what, *_send(d, "POST", "/do/load", {"token": token, "month": MONTH}))

    t0 = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        answers = list(pool.map(ask, asks, timeout=BOUND))
    d.desk.wait(BOUND)
    assert time.monotonic() - t0 < BOUND

    for what, status, text in answers:
        if what == "page":
            assert status == 200, text[:400]
        else:
            assert status in (303, 409), text[:400]
            if status == 409:
                assert "the database is busy" in text
    accepted = sum(1 for what, status, _ in answers if what == "load" and status == 303)
    assert accepted >= 1 and len(ran) == accepted
    failed = [exc for exc in ran if exc is not None]
    assert failed == [], failed
    assert d.desk.job.error is None and threading.active_count() < 50


HOLD = """
import sys
from pipeline.core.locks import holding
with holding(sys.argv[1], 0, "pound build"):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_an_action_while_a_pound_command_holds_the_database_names_the_command(desk_of):
    import html
    import os
    import subprocess
    import sys

    d = desk_of()
    alone = {k: v for k, v in os.environ.items() if k != "POUND_DB_HELD"}
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(d.places.db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=alone)
    try:
        assert holder.stdout.readline().strip() == "held"
        page = html.unescape(_send(d, "GET", f"/?month={MONTH}")[1])
        assert f"{MONTH}: being worked on by pound build (pid {holder.pid}, since " in page
        token = re.search(r'name="token" value="([^"]+)"', page).group(1)
        t0 = time.monotonic()
        assert _send(d, "POST", "/do/load", {"token": token, "month": MONTH})[0] == 303
        job = d.desk.wait(60)
        assert job.error.startswith(f"the database is busy: pound build (pid {holder.pid}, since ")
        assert job.error.endswith(" is using it; try again when it has finished") and time.monotonic() - t0 < 15
        assert not d.places.db.exists()                  # the load never began
    finally:
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(30)
    # its twin: the command has finished, the load runs
    assert _send(d, "POST", "/do/load", {"token": token, "month": MONTH})[0] == 303
    assert d.desk.wait(120).error is None and d.places.db.exists()
    assert "being worked on" not in _send(d, "GET", f"/?month={MONTH}")[1]


def test_a_link_where_the_lock_file_goes_is_said_on_the_page_in_one_line(desk_of, tmp_path):
    import html

    d = desk_of()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    Path(f"{d.places.db}.lock").symlink_to(victim)
    status, page = _send(d, "GET", f"/?month={MONTH}")
    problem = html.unescape(page.split('id="problem">', 1)[1].split("</p>", 1)[0])
    assert status == 200 and "is a symbolic link" in problem and "\n" not in problem
    assert victim.read_text() == "keep me"
    # its twin: the link gone, the month's state is read
    Path(f"{d.places.db}.lock").unlink()
    status, page = _send(d, "GET", f"/?month={MONTH}")
    assert status == 200 and 'id="problem"' not in page and f"{MONTH}: not loaded" in html.unescape(page)


def test_a_command_is_refused_between_an_actions_connections_and_runs_once_it_ends(desk_of, monkeypatch):
    """The fault met in the review: between two of its connections (the build closed, the kernels not
    yet reading) DuckDB's lock is free, and `pound ingest` ran in the middle. The action here holds
    no connection at all while it waits: the command is refused all the same, naming it."""
    import os
    import subprocess
    import sys

    from pipeline import steps
    from pipeline.desk import actions
    from pipeline.load.results import IngestResult

    inside, release = threading.Event(), threading.Event()

    def between_connections(places, month, progress):
        inside.set()
        release.wait(60)
        return steps.Loaded(places.bundle, places.db, IngestResult(), None)

    monkeypatch.setattr(actions, "load", between_connections)
    d = desk_of()
    alone = {k: v for k, v in os.environ.items() if k != "POUND_DB_HELD"}
    ingest = [sys.executable, "-m", "pipeline", "ingest", str(d.places.bundle), "--db", str(d.places.db)]
    token = re.search(r'name="token" value="([^"]+)"', _send(d, "GET", f"/?month={MONTH}")[1]).group(1)
    assert _send(d, "POST", "/do/load", {"token": token, "month": MONTH})[0] == 303
    try:
        assert inside.wait(30)
        refused = subprocess.run([*ingest, "--wait", "1"], capture_output=True, text=True, env=alone, timeout=120)
        assert refused.returncode == 1 and not d.places.db.exists()
        assert refused.stderr.splitlines()[-1].startswith(
            f"pound: database {d.places.db} is in use by the desk's \"Load the registers\" (pid {os.getpid()}, since ")
    finally:
        release.set()
    assert d.desk.wait(60).error is None
    # its twin: the action over, the command runs at once
    done = subprocess.run([*ingest, "--wait", "1"], capture_output=True, text=True, env=alone, timeout=300)
    assert done.returncode == 0 and "waiting" not in done.stderr, done.stderr
    assert done.stdout.startswith("loaded 16 file(s)")


def _page_holds(d, monkeypatch) -> list[str]:
    """What the desk's page held the database as, for each time it did (jobs.holding, recorded)."""
    from pipeline.desk import jobs

    held: list[str] = []
    real = jobs.holding

    def recorded(db, wait=0, what="", **kw):
        held.append(what)
        return real(db, wait=wait, what=what, **kw)

    monkeypatch.setattr(jobs, "holding", recorded)
    return held


def test_a_page_drawn_once_an_action_is_started_leaves_the_database_to_it(desk_at, monkeypatch):
    from pipeline.desk import jobs

    d = desk_at("reviewed")
    d.get(f"/?month={MONTH}")                      # the month read once: the page shows it again below
    held = _page_holds(d, monkeypatch)
    d.desk.lock.acquire()                          # an action started; its thread has not taken the database yet
    try:
        page = d.get(f"/?month={MONTH}")
    finally:
        d.desk.lock.release()
    assert page.status_code == 200 and MONTH in page.text
    assert held == [], f"the page held the database as {held} while an action was waiting for it"
    assert jobs.PAGE not in page.text


def test_a_page_drawn_with_no_action_reads_the_database_holding_it(desk_at, monkeypatch):
    from pipeline.desk import jobs

    d = desk_at("reviewed")
    held = _page_holds(d, monkeypatch)
    assert d.get(f"/?month={MONTH}").status_code == 200
    assert held and set(held) == {jobs.PAGE}, held
