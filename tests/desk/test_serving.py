"""Serving the desk beyond this machine: the names it answers to (and every other refused)."""

from __future__ import annotations

import base64
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
