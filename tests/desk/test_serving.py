"""Serving the desk beyond this machine: the names it answers to (and every other refused), the
production server `pound desk` runs, HTTPS with --cert and --key, and the warning when the
password would cross the network in clear. The servers here listen on this machine and are
reached through the loopback only."""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from pipeline.desk.hosts import answered, machine_addresses

ROOT = Path(__file__).resolve().parents[2]
AUTH = {"Authorization": "Basic " + base64.b64encode(b"clerk:correct horse").decode()}


def app_on(tmp_path, host, **kw):
    from pipeline.desk.actions import Places
    from pipeline.desk.app import create_app

    return create_app(Places(ROOT / "data/sample", tmp_path / "x.duckdb", tmp_path), host=host, port=8050,
                      password="correct horse", **kw).test_client()


def status(client, host: str) -> int:
    return client.get("/", headers={"Host": host, **AUTH}).status_code


def test_on_every_address_the_desk_answers_at_this_machines_addresses_and_the_allowed_names(tmp_path):
    c = app_on(tmp_path, "0.0.0.0", allowed_hosts=["Clerk-PC.local", "192.0.2.200"])
    ipv4 = [a for a in machine_addresses(ipv6=False)]
    assert "127.0.0.1" in ipv4 and all(":" not in a for a in ipv4)
    for address in ipv4:                                  # each interface's address, read from the interfaces
        assert status(c, f"{address}:8050") == 200, address
    for name in ("clerk-pc.local:8050", "CLERK-PC.LOCAL:8050", "192.0.2.200:8050", "localhost:8050"):
        assert status(c, name) == 200, name
    # its near misses: another name, a name that only begins like an allowed one, another port,
    # the wildcard itself, an IPv6 address (not listened on with 0.0.0.0)
    for name in ("evil.example:8050", "clerk-pc.local.evil.example:8050", "clerk-pc:8050", f"{ipv4[0]}:8051",
                 "0.0.0.0:8050", "[::1]:8050", "clerk-pc.local"):
        assert status(c, name) == 400, name


def test_on_every_ipv6_address_the_desk_answers_at_bracketed_literals(tmp_path):
    c = app_on(tmp_path, "::")
    ipv6 = [a for a in machine_addresses() if a.startswith("[")]
    if not ipv6:
        pytest.skip("this machine has no IPv6 address")
    for address in ipv6:
        assert status(c, f"{address}:8050") == 200, address
    assert status(c, "127.0.0.1:8050") == 200                           # :: takes IPv4 too (dual stack)
    assert status(c, "[::]:8050") == 400 and status(c, "[fd00::dead:beef]:8050") == 400


@pytest.mark.parametrize(("host", "ok", "refused"), [
    ("192.0.2.20", "192.0.2.20:8050", "192.0.2.21:8050"),
    ("fd00::20", "[fd00::20]:8050", "fd00::20:8050"),
    ("[FD00::20]", "[fd00::20]:8050", "[fd00::21]:8050"),
    ("clerk-pc.local", "clerk-pc.local:8050", "evil.example:8050"),
])
def test_on_one_address_the_desk_answers_at_that_address(tmp_path, host, ok, refused):
    c = app_on(tmp_path, host)
    assert status(c, ok) == 200 and status(c, refused) == 400


def test_the_port_is_left_out_only_for_the_schemes_own():
    assert "clerk-pc.local" in answered("0.0.0.0", 443, ["clerk-pc.local"])
    assert "clerk-pc.local" not in answered("0.0.0.0", 8443, ["clerk-pc.local"])


@pytest.mark.parametrize("name", ["*", "http://clerk-pc", "clerk-pc:8043", "clerk pc", "0.0.0.0", "::", ""])
def test_an_allowed_host_that_is_no_name_is_refused_in_one_line(run_cli, tmp_path, name):
    pw = tmp_path / "pw"
    pw.write_text("correct horse\n")
    code, _, err = run_cli("desk", "--bundle", ROOT / "data/sample", "--db", tmp_path / "x.duckdb", "--host", "0.0.0.0",
                           "--password-file", pw, "--allowed-host", name, "--port", "0")
    assert code == 1 and "--allowed-host" in err and "give a host name" in err and len(err.strip().splitlines()) == 1


# --- the server `pound desk` runs -------------------------------------------------------------


class Desk:
    """`pound desk` in a process of its own (its first line read), stopped with Ctrl-C."""

    def __init__(self, tmp_path: Path, *args, script: str | None = None):
        bundle = tmp_path / "b"
        if not bundle.exists():
            shutil.copytree(ROOT / "data/sample", bundle)
        self.out = tmp_path / "out"
        head = ["-c", script] if script else ["-m", "pipeline"]
        self.p = subprocess.Popen([sys.executable, *head, "desk", "--bundle", str(bundle), "--db", str(tmp_path / "d.duckdb"),
                                   "--out", str(self.out), *map(str, args)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.line = self.p.stdout.readline()
        m = re.match(r"the desk is at (https?)://127\.0\.0\.1:(\d+)/ ", self.line)
        assert m, (self.line, self.p.stderr.read() if self.p.poll() is not None else "")
        self.scheme, self.port = m.group(1), int(m.group(2))
        self.url = f"{self.scheme}://127.0.0.1:{self.port}/"

    def stop(self, how=signal.SIGINT) -> tuple[int, str, str]:
        if self.p.poll() is None:
            self.p.send_signal(how)
        self.p.wait(60)
        # read through the text streams, not communicate(): it reads the pipes' raw descriptors and
        # would miss what readline() has already taken into the stream's buffer
        out, err = self.p.stdout.read(), self.p.stderr.read()
        return self.p.returncode, self.line + out, err


def test_pound_desk_on_port_0_is_served_by_the_production_server_and_says_its_real_port(tmp_path):
    d = Desk(tmp_path, "--port", "0")
    try:
        assert d.port != 0
        with urllib.request.urlopen(d.url, timeout=10) as r:
            page = r.read().decode()
        assert r.status == 200 and "Load the registers" in page
        assert r.headers["Server"] == "pound-desk"                 # Werkzeug's would say Werkzeug/3.x Python/3.x
        # its near miss: the guard is the same behind this server: another name is refused
        req = urllib.request.Request(d.url, headers={"Host": f"evil.example:{d.port}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=10)
        assert refused.value.code == 400
    finally:
        code, out, err = d.stop()
    assert code == 0 and "Traceback" not in err, err
    assert "warning" not in err                                    # on the loopback, no word about plain HTTP


SLOW_LOAD = """
import sys, time
from pipeline import steps
from pipeline.desk import actions
from pipeline.load.results import IngestResult

def slow(places, month, progress):
    progress.step("loading (held by the test)")
    time.sleep(4)
    places.out.mkdir(parents=True, exist_ok=True)
    (places.out / "load-finished").write_text("yes")
    return steps.Loaded(places.bundle, places.db, IngestResult(), None)

actions.load = slow
from pipeline.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_while_a_step_runs_and_uploads_go_slowly_the_pages_polls_are_answered_and_ctrl_c_waits_for_the_step(tmp_path, how):
    d = Desk(tmp_path, "--port", "0", script=SLOW_LOAD)
    try:
        page = urllib.request.urlopen(d.url, timeout=10).read().decode()
        token = re.search(r'name="token" value="([^"]+)"', page).group(1)
        body = f"month=2026-11&token={token}".encode()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **kw):
                return None

        with pytest.raises(urllib.error.HTTPError) as posted:
            urllib.request.build_opener(NoRedirect).open(urllib.request.Request(d.url + "do/load", data=body), timeout=10)
        assert posted.value.code == 303
        stalled = []                                    # uploads that go slowly: each holds a thread meanwhile
        for _ in range(8):
            s = socket.create_connection(("127.0.0.1", d.port), timeout=10)
            s.sendall(f"POST /add HTTP/1.1\r\nHost: 127.0.0.1:{d.port}\r\nContent-Type: application/x-www-form-urlencoded"
                      f"\r\nContent-Length: 100000\r\n\r\nmonth=2026-11&".encode())
            stalled.append(s)
        answers, lock = [], threading.Lock()

        def poll():                                     # many pages polling at once, as desk.js does each second
            with urllib.request.urlopen(d.url + "progress", timeout=10) as r:
                with lock:
                    answers.append(json.loads(r.read()))

        polls = [threading.Thread(target=poll) for _ in range(24)]
        t0 = time.monotonic()
        for t in polls:
            t.start()
        for t in polls:
            t.join(20)
        assert len(answers) == 24 and time.monotonic() - t0 < 3
        assert all(a["running"] and a["step"] == "loading (held by the test)" for a in answers)
        assert not (d.out / "load-finished").exists()
        for s in stalled:
            s.close()
    finally:
        code, out, err = d.stop(how)                    # Ctrl-C (or a service manager's SIGTERM) while the step runs
    assert code == 0, err
    assert (d.out / "load-finished").read_text() == "yes"           # the step finished before the desk stopped


# --- HTTPS --------------------------------------------------------------------------------------


@pytest.fixture
def cert(tmp_path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key (PEM)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pound desk test")])
    now = dt.datetime.now(dt.UTC)
    c = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
         .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
         .not_valid_after(now + dt.timedelta(days=1))
         .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                     x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
         .sign(key, hashes.SHA256()))
    (tmp_path / "desk.crt").write_bytes(c.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "desk.key").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    return tmp_path / "desk.crt", tmp_path / "desk.key"


def test_with_cert_and_key_the_desk_answers_over_https_only_and_without_the_warning(tmp_path, cert):
    pw = tmp_path / "pw"
    pw.write_text("correct horse\n")
    d = Desk(tmp_path, "--port", "0", "--host", "0.0.0.0", "--password-file", pw, "--cert", cert[0], "--key", cert[1])
    try:
        assert d.scheme == "https"
        trusted = ssl.create_default_context(cafile=str(cert[0]))
        idle = [socket.create_connection(("127.0.0.1", d.port), timeout=10) for _ in range(3)]   # connect, say nothing
        t0 = time.monotonic()
        with urllib.request.urlopen(urllib.request.Request(d.url, headers=AUTH), context=trusted, timeout=30) as r:
            assert r.status == 200 and "Load the registers" in r.read().decode()
        assert time.monotonic() - t0 < 3                 # cheroot's own adapter would wait out each idle one (10 s)
        for s in idle:
            s.close()
        # its near misses: plain HTTP on the same port gets no page, and a client that does not
        # trust the certificate refuses it
        try:
            with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{d.port}/", headers=AUTH), timeout=10) as r:
                plain = r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            plain = exc.code, exc.read().decode()
        except (urllib.error.URLError, ConnectionError) as exc:
            plain = None, str(exc)
        assert plain == (400, "this desk speaks HTTPS only: open it with https://")
        with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
            urllib.request.urlopen(d.url, context=ssl.create_default_context(), timeout=10)
    finally:
        code, out, err = d.stop()
    assert code == 0 and "cross the network in clear" not in err, err


def test_beyond_the_loopback_without_cert_the_desk_warns_in_one_line_that_the_password_goes_in_clear(tmp_path):
    pw = tmp_path / "pw"
    pw.write_text("correct horse\n")
    d = Desk(tmp_path, "--port", "0", "--host", "0.0.0.0", "--password-file", pw, "--allowed-host", "clerk-pc.local")
    try:
        with urllib.request.urlopen(urllib.request.Request(d.url, headers=AUTH), timeout=10) as r:
            assert r.status == 200
    finally:
        code, out, err = d.stop()
    assert code == 0
    assert f"other machines open http://clerk-pc.local:{d.port}/" in out
    warned = [line for line in err.splitlines() if "cross the network in clear" in line]
    assert len(warned) == 1 and "--cert FILE --key FILE" in warned[0]


@pytest.mark.parametrize(("which", "says"), [
    ("missing cert", "--cert {cert}: cannot be read (No such file or directory)"),
    ("key as cert", "--cert {key} is not a certificate in PEM"),
    ("cert as key", "--key {cert} is not a private key in PEM"),
    ("another key", "--key {other} is not the private key of --cert {cert}"),
    ("key alone", "give --cert FILE and --key FILE together"),
])
def test_a_bad_cert_or_key_is_one_line_not_a_traceback(run_cli, tmp_path, cert, which, says):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    other = tmp_path / "other.key"
    other.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    crt, key = cert
    missing = tmp_path / "none.crt"
    given = {"missing cert": ["--cert", missing, "--key", key], "key as cert": ["--cert", key, "--key", key],
             "cert as key": ["--cert", crt, "--key", crt], "another key": ["--cert", crt, "--key", other],
             "key alone": ["--key", key]}[which]
    code, _, err = run_cli("desk", "--bundle", ROOT / "data/sample", "--db", tmp_path / "x.duckdb", "--port", "0", *given)
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert says.format(cert=missing if which == "missing cert" else crt, key=key, other=other) in err
