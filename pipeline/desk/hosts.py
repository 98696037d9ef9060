"""The names and addresses the desk answers to (the Host header a request must carry).

A page on another site may get a browser to send it requests by pointing a name of its own at
the desk's address (DNS rebinding); such a request carries that name in its Host header, and the
desk refuses it. The desk answers to the addresses it listens on (each of this machine's when it
listens on all of them: read from the interfaces, no lookup on the network), to this machine's
name then, to loopback names, and to any name the office gives with --allowed-host.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable

from pipeline.core.errors import PoundError

EVERY_IPV4 = {"0.0.0.0", ""}
EVERY_IPV6 = {"::", "::0"}
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?")


def bare(host: str) -> str:
    """An address as a socket takes it: without the brackets an IPv6 literal has in a URL."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def ip_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(bare(host).split("%", 1)[0])
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    ip = ip_of(host)
    return host.lower() == "localhost" if ip is None else ip.is_loopback


def is_every_address(host: str) -> bool:
    return bare(host) in EVERY_IPV4 | EVERY_IPV6


def in_url(host: str) -> str:
    """The host as a URL and a Host header write it: an IPv6 literal in brackets, its zone dropped
    (browsers do not send one)."""
    ip = ip_of(host)
    if ip is None:
        return bare(host).lower()
    return f"[{ip.compressed}]" if ip.version == 6 else ip.compressed


def machine_addresses(ipv6: bool = True) -> list[str]:
    """This machine's interface addresses (loopback too), from the interfaces themselves."""
    import psutil

    families = {socket.AF_INET} | ({socket.AF_INET6} if ipv6 else set())
    found = []
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family in families and ip_of(a.address) is not None and in_url(a.address) not in found:
                found.append(in_url(a.address))
    return found


def allowed_name(text: str) -> str:
    """An --allowed-host: a host name or an IP address, no port, no scheme, no wildcard."""
    name = text.strip().lower()
    if ip_of(name) is not None and not is_every_address(name):
        return in_url(name)
    if is_every_address(name) or not _NAME.fullmatch(name) or len(name) > 253:
        raise PoundError(f"--allowed-host {text!r}: give a host name (clerk-pc.local) or an address "
                         "(192.168.1.20), without a port or http://")
    return name.rstrip(".")


def answered(host: str, port: int, allowed: Iterable[str] = ()) -> set[str]:
    """The Host header values the desk takes: each name or address, with the port, and bare when
    the port is the scheme's own (80, 443), as a browser then sends it."""
    names = {in_url(host), "localhost", "127.0.0.1"} | {allowed_name(a) for a in allowed}
    if is_every_address(host):
        names |= set(machine_addresses(ipv6=bare(host) in EVERY_IPV6)) | {socket.gethostname().lower()}
    names.discard("")
    if is_every_address(host):
        names -= {in_url(bare(host) or "0.0.0.0")}          # no browser reaches 0.0.0.0 or [::]
    return {f"{n}:{port}" for n in names} | (names if port in (80, 443) else set())
