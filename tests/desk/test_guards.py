"""The desk's guards, each refusing with nothing written: a change without the page's token, a
Host header not the desk's own, a file name that climbs out of the bundle, a file too large, a
file that is no register; the password every request needs once the desk listens beyond
127.0.0.1; and one action at a time."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def listing(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def shown_after(d, r) -> str:
    """A refused upload: the page is sent to a GET (303), which shows the refusal."""
    assert r.status_code == 303 and "said=" in r.headers["Location"], r.status_code
    return d.get(r.headers["Location"]).text


def test_a_value_holding_a_line_or_paragraph_separator_keeps_its_line_of_the_history(tmp_path):
    # JSON leaves U+2028 and U+2029 as they are; the history's lines end in \n only, so that a name or
    # a result holding one is read back, not passed over as a broken line (hiding who did what)
    from pipeline.desk import history

    history.write(tmp_path, "Asha\u2028(clerk)", "upload", "2026-11", "added\u2029", file="registers/x\u2028.csv")
    history.write(tmp_path, "office", "load", "2026-11", "loaded")
    assert [(h["who"], h["result"]) for h in history.read(tmp_path, "2026-11")] == [
        ("Asha\u2028(clerk)", "added\u2029"), ("office", "loaded")]


def test_a_change_without_the_page_token_is_refused_and_nothing_is_loaded(desk_of):
    d = desk_of()
    r = d.post("/do/load", data={"month": "2026-11"})
    assert r.status_code == 403 and "no valid token" in r.text
    r = d.post("/do/load", data={"month": "2026-11", "token": "made-up"})
    assert r.status_code == 403
    assert d.desk.job is None and not d.places.db.exists()
    # its twin: with the token the page gave, the same request loads
    r = d.post("/do/load", data={"month": "2026-11", "token": d.token()})
    assert r.status_code == 303
    assert d.desk.wait().error is None and d.places.db.exists()


def test_a_change_from_another_origin_is_refused_even_with_a_token(desk_of):
    d = desk_of()
    r = d.post("/do/load", data={"month": "2026-11", "token": d.token()}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and not d.places.db.exists()
    # the desk's own address by another scheme is another origin
    r = d.post("/do/load", data={"month": "2026-11", "token": d.token()},
               headers={"Origin": f"https://127.0.0.1:{d.port}"})
    assert r.status_code == 403 and not d.places.db.exists()
    # "null": a sandboxed frame's origin, or another page's that hides its address
    r = d.post("/do/load", data={"month": "2026-11", "token": d.token()}, headers={"Origin": "null"})
    assert r.status_code == 403 and not d.places.db.exists()
    # its twin: the desk's own origin is taken, and the desk's pages send it (Referrer-Policy same-origin)
    r = d.post("/do/load", data={"month": "2026-11", "token": d.token()}, headers={"Origin": f"http://127.0.0.1:{d.port}"})
    assert r.status_code == 303 and d.get("/").headers["Referrer-Policy"] == "same-origin"


def test_a_host_header_not_the_desks_own_is_refused(desk_of):
    d = desk_of()
    for host in ("evil.example", f"evil.example:{d.port}", "127.0.0.1:1"):
        r = d.client().get("/", headers={"Host": host})
        assert r.status_code == 400, host
        assert "name=\"token\"" not in r.text                # no page, no token for a rebound name
        r = d.client().post("/do/load", headers={"Host": host}, data={"month": "2026-11", "token": d.token()})
        assert r.status_code == 400 and not d.places.db.exists()
    assert d.get("/").status_code == 200
    assert d.client().get("/", headers={"Host": f"localhost:{d.port}"}).status_code == 200


@pytest.mark.parametrize("name", ["../../x.csv", "..\\..\\x.csv", "registers/../../x.csv", ".hidden.csv", "/etc/x.csv",
                                  "impoundments_\u2028.csv", "impoundments_\u202e.csv"])
def test_an_upload_named_to_climb_out_is_refused(desk_of, tmp_path, name):
    d = desk_of()
    before = listing(tmp_path)
    r = d.post("/add", data={"token": d.token(), "month": "2026-11",
                             "file": (io.BytesIO(b"impoundment_id\nX\n"), name)}, content_type="multipart/form-data")
    assert "not a plain file name" in shown_after(d, r)
    assert listing(tmp_path) == before


def test_an_oversized_upload_is_refused_and_nothing_is_written(desk_of, tmp_path):
    d = desk_of(max_bytes=1024)
    before = listing(tmp_path)
    body = (ROOT / "data/sample/registers/impoundments.csv").read_bytes() * 50
    assert len(body) > 2 * 1024 * 1024 // 1024
    r = d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(body), "impoundments_x.csv")},
               content_type="multipart/form-data")
    assert "larger than" in shown_after(d, r)
    assert listing(tmp_path) == before
    # a file just under the bound is taken: the bound is the file's size, not any request's
    small = (ROOT / "data/sample/registers/security_deposits.csv").read_bytes()
    assert len(small) < 1024
    r = d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(small), "security_deposits_x.csv")},
               content_type="multipart/form-data")
    assert r.status_code == 303
    assert (d.places.bundle / "registers" / "security_deposits_x.csv").read_bytes() == small


@pytest.mark.parametrize(("name", "body", "says"), [
    ("notes.txt", b"hello", "not a register workbook (.xlsx) or CSV file"),
    ("minutes.csv", b"a,b\n1,2\n", "not the name of a register or ledger file"),
    ("book.xlsx", b"PK not really a workbook", "cannot be opened as an Excel workbook"),
])
def test_a_file_that_is_no_register_is_refused_with_one_line(desk_of, tmp_path, name, body, says):
    d = desk_of()
    before = listing(tmp_path)
    r = d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(body), name)},
               content_type="multipart/form-data")
    assert says in shown_after(d, r)
    assert listing(tmp_path) == before


def test_an_upload_is_saved_under_its_own_name_in_registers_or_ledgers(desk_of):
    d = desk_of()
    ledger = (ROOT / "data/sample/ledgers/local_fund.csv").read_bytes()
    r = d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(ledger), "local_fund_2026-12.csv")},
               content_type="multipart/form-data")
    assert r.status_code == 303
    assert (d.places.bundle / "ledgers" / "local_fund_2026-12.csv").read_bytes() == ledger
    assert not list(d.places.bundle.rglob(".upload-*"))
    # the same name again replaces only itself; every other file stays as it was (the desk's history
    # gains its line)
    others = listing(d.places.bundle)
    r = d.post("/add", data={"token": d.token(), "month": "2026-11",
                             "file": (io.BytesIO(ledger + b""), "local_fund_2026-12.csv")}, content_type="multipart/form-data")
    now = listing(d.places.bundle)
    history = "closes/desk_history.jsonl"
    assert now.pop(history).startswith(others.pop(history))
    assert r.status_code == 303 and now == others
    assert "added local_fund_2026-12.csv to ledgers/ in place of the file of that name" in d.get("/").text


def test_beyond_loopback_the_desk_needs_a_password_file(run_cli, tmp_path):
    code, _, err = run_cli("desk", "--bundle", ROOT / "data/sample", "--db", tmp_path / "x.duckdb", "--host", "0.0.0.0")
    assert code == 1 and "give --password-file" in err
    short = tmp_path / "pw"
    short.write_text("abc\n")
    code, _, err = run_cli("desk", "--bundle", ROOT / "data/sample", "--db", tmp_path / "x.duckdb", "--host", "0.0.0.0",
                           "--password-file", short)
    assert code == 1 and "at least 8 characters" in err


def test_with_a_password_every_request_needs_it(desk_of):
    import base64

    d = desk_of(password="correct horse")
    assert d.get("/").status_code == 401
    assert d.get("/desk.css").status_code == 401
    wrong = base64.b64encode(b"clerk:wrong").decode()
    assert d.get("/", headers={"Authorization": f"Basic {wrong}"}).status_code == 401
    right = base64.b64encode(b"clerk:correct horse").decode()
    assert d.get("/", headers={"Authorization": f"Basic {right}"}).status_code == 200
    r = d.post("/do/load", data={"month": "2026-11", "token": "x"})
    assert r.status_code == 401 and not d.places.db.exists()


def test_two_actions_at_once_one_runs_the_other_is_told_the_database_is_busy(desk_of, monkeypatch):
    """One action at a time: a second, from another page, is refused while the first runs; a
    `pound` command on the same database meanwhile is told it is in use."""
    from pipeline import steps
    from pipeline.desk import actions
    from pipeline.load import connection
    from pipeline.load.results import IngestResult

    release = threading.Event()
    holding = threading.Event()

    def slow_load(places, month, progress):        # holds the database as a load does, until released
        con = connection.connect(places.db)
        try:
            progress.step("loading (held by the test)")
            holding.set()
            release.wait(30)
        finally:
            con.close()
        return steps.Loaded(places.bundle, places.db, IngestResult(), None)

    monkeypatch.setattr(actions, "load", slow_load)
    d = desk_of()
    first, second = d.page_token(), d.page_token()   # two pages
    assert d.post("/do/load", data={"month": "2026-11", "token": first}).status_code == 303
    assert holding.wait(10)
    r = d.post("/do/review", data={"month": "2026-11", "token": second})
    assert r.status_code == 409 and "the database is busy" in r.text and "Load the registers" in r.text
    page = d.get("/?month=2026-11").text
    assert "Working: Load the registers" in page and "loading (held by the test)" in page
    assert d.get("/progress").json == {"running": True, "step": "loading (held by the test)",
                                       "elapsed": d.get("/progress").json["elapsed"]}      # what desk.js shows each second
    # (a process this one starts while the desk holds the database counts as the desk's own: not this one)
    alone = {k: v for k, v in os.environ.items() if k != "POUND_DB_HELD"}
    cli = subprocess.run([sys.executable, "-m", "pipeline", "build", "--db", str(d.places.db), "--out",
                          str(d.places.out / "cli"), "--wait", "0"], capture_output=True, text=True, cwd=ROOT, env=alone)
    assert cli.returncode == 1 and f"is in use by the desk's \"Load the registers\" (pid {os.getpid()}" in cli.stderr
    release.set()
    assert d.desk.wait().error is None
    # its twin: once the first has finished, the second runs
    assert d.post("/do/verify", data={"month": "2026-11", "token": d.token()}).status_code == 303
    assert "has not been closed" in d.desk.wait().error


def test_an_action_while_a_pound_command_holds_the_database_is_told_it_is_busy(desk_of):
    d = desk_of()
    d.places.db.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(30)", str(d.places.db)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        assert d.post("/do/load", data={"month": "2026-11", "token": d.token()}).status_code == 303
        job = d.desk.wait()
        assert job.error.startswith("the database is busy") and time.monotonic() - t0 < 15
        assert "busy" in d.get("/?month=2026-11").text
        # a file is neither added to nor removed from the bundle meanwhile: each is refused in a line
        registers = d.places.bundle / "registers"
        (registers / "sales_2026-12.csv").write_bytes(b"sale_id\n")
        r = d.post("/add", data={"token": d.token(), "month": "2026-11",
                                 "file": (io.BytesIO(b"release_id\n"), "releases_2026-12.csv")},
                   content_type="multipart/form-data")
        assert ("the database is busy (another program is using it); add the file when it has finished; "
                "nothing was saved") in shown_after(d, r)
        r = d.post("/remove", data={"token": d.token(), "month": "2026-11", "file": "registers/sales_2026-12.csv"})
        assert "the database is busy (another program is using it); nothing was removed" in shown_after(d, r)
        assert (registers / "sales_2026-12.csv").exists() and not (registers / "releases_2026-12.csv").exists()
    finally:
        holder.kill()
        holder.wait()


def test_listening_on_every_address_it_answers_to_this_machines_names_only(tmp_path):
    import base64
    import socket

    from pipeline.desk.actions import Places
    from pipeline.desk.app import create_app

    app = create_app(Places(ROOT / "data/sample", tmp_path / "x.duckdb", tmp_path), host="0.0.0.0", port=8050,
                     password="correct horse")
    auth = {"Authorization": "Basic " + base64.b64encode(b"clerk:correct horse").decode()}
    c = app.test_client()
    assert c.get("/", headers={"Host": f"{socket.gethostname()}:8050", **auth}).status_code == 200
    assert c.get("/", headers={"Host": "evil.example:8050", **auth}).status_code == 400


def test_pound_desk_serves_the_page_on_loopback_and_stops_on_ctrl_c(tmp_path):
    import shutil
    import signal
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    bundle = tmp_path / "b"
    shutil.copytree(ROOT / "data/sample", bundle)
    p = subprocess.Popen([sys.executable, "-m", "pipeline", "desk", "--bundle", str(bundle), "--db", str(tmp_path / "d.duckdb"),
                          "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = p.stdout.readline()
        assert line.startswith(f"the desk is at http://127.0.0.1:{port}/"), (line, p.stderr.read() if p.poll() else "")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            page = r.read().decode()
        assert r.status == 200 and "Load the registers" in page and str(bundle) in page
        # and on this machine only: its one listening socket is bound to the loopback (asked of the
        # system, not tried by connecting to the machine's other addresses, which tests never reach)
        import psutil

        listening = [c.laddr for c in psutil.Process(p.pid).net_connections(kind="inet")
                     if c.status == psutil.CONN_LISTEN]
        assert [(a.ip, a.port) for a in listening] == [("127.0.0.1", port)], listening
    finally:
        p.send_signal(signal.SIGINT)
        assert p.wait(20) == 0


def test_the_desk_runs_its_own_script_only_and_the_reviews_pages_run_sandboxed(desk_of):
    d = desk_of()
    csp = d.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp and "sandbox" not in csp
    folder = d.places.month("2026-11")
    folder.mkdir(parents=True)
    (folder / "monthly_review_2026-11.html").write_text("<p>page 1</p>", encoding="utf-8")
    (folder / "monthly_review_2026-11.pdf").write_bytes(b"%PDF-1.4\n")
    r = d.get("/files/2026-11/review/monthly_review_2026-11.html")
    csp = r.headers["Content-Security-Policy"]
    assert r.status_code == 200 and csp.startswith("sandbox allow-scripts ") and "allow-same-origin" not in csp
    assert "connect-src 'none'" in csp and "form-action 'none'" in csp
    # its twin: a PDF is not sandboxed (the browser's viewer would refuse it)
    r = d.get("/files/2026-11/review/monthly_review_2026-11.pdf")
    assert r.status_code == 200 and "sandbox" not in r.headers["Content-Security-Policy"]
    # nothing outside the folders the desk writes is served
    # (every other path: test_served_files.py)


def test_the_desk_writes_nothing_through_a_link_in_its_output_folder(desk_at, tmp_path):
    # papers/ and workbooks/ made links to a folder elsewhere (by whoever can write the output
    # folder): "Make the papers" and "Make the ledger workbooks" are refused in one line, and
    # nothing is written where the links lead; the month's review folder a link: the review too
    from test_month_steps import do

    d = desk_at("reviewed")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    month = d.places.month("2026-11")
    for name in ("papers", "workbooks"):
        if (month / name).exists():
            shutil.rmtree(month / name)
        (month / name).symlink_to(elsewhere, target_is_directory=True)
    assert "is a link to" in do(d, "papers", "2026-11").error
    r = d.post("/workbooks", data={"token": d.token(), "month": "2026-11", "kind": "ledgers"})
    assert "is a link to" in shown_after(d, r)
    december = d.places.month("2026-12")
    december.symlink_to(elsewhere, target_is_directory=True)
    assert "is a link to" in do(d, "review", "2026-12").error
    assert list(elsewhere.iterdir()) == []


def test_a_file_is_not_added_through_a_link_for_registers(desk_of):
    d = desk_of()
    registers = d.places.bundle / "registers"
    registers.rename(d.places.bundle / "elsewhere")
    registers.symlink_to(d.places.bundle / "elsewhere", target_is_directory=True)
    before = sorted(p.name for p in (d.places.bundle / "elsewhere").iterdir())
    r = d.post("/add", data={"token": d.token(), "month": "2026-11",
                             "file": (io.BytesIO(b"release_id\n"), "releases_2026-12.csv")}, content_type="multipart/form-data")
    assert "the bundle&#39;s registers/ is a link to another folder; nothing was saved" in shown_after(d, r)
    assert sorted(p.name for p in (d.places.bundle / "elsewhere").iterdir()) == before
