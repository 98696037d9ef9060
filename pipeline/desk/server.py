"""pound desk's server: cheroot's WSGI server (a pool of threads), on plain HTTP, or on HTTPS with
a certificate and its key (Python's own ssl, through cheroot's builtin adapter).

Werkzeug's server, which Flask brings, is meant for development only; cheroot serves both
ways with one code path, so the loopback desk and the office's HTTPS desk run the same server.
"""

from __future__ import annotations

import re
import signal
import socket
import ssl
import threading
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.desk.hosts import bare, in_url, is_every_address, is_loopback, machine_addresses

THREADS = 16                 # requests at once: the page polls /progress each second while a step runs,
                             # an upload may take a while, and other clerks' pages load meanwhile
HEADER_BYTES = 64 * 1024     # the largest request line and headers taken (the body is Flask's to bound)
NAME = "pound-desk"          # the Server header, without a version


class _Passphrase(Exception):
    pass


def _no_passphrase():
    raise _Passphrase        # OpenSSL would otherwise ask on the terminal


def tls_of(cert: Path | None, key: Path | None):
    """cheroot's adapter for --cert and --key (None for plain HTTP); a bad pair is one line."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise PoundError("give --cert FILE and --key FILE together (the certificate and its private key, PEM)")
    texts = {}
    for flag, path in (("--cert", cert), ("--key", key)):
        try:
            texts[flag] = path.read_bytes()
        except OSError as exc:
            raise PoundError(f"{flag} {path}: cannot be read ({exc.strerror})") from None
    if b"-----BEGIN CERTIFICATE-----" not in texts["--cert"]:
        raise PoundError(f"--cert {cert} is not a certificate in PEM (a text file with -----BEGIN CERTIFICATE-----)")
    if b"PRIVATE KEY-----" not in texts["--key"]:
        raise PoundError(f"--key {key} is not a private key in PEM (a text file with -----BEGIN PRIVATE KEY-----)")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key, password=_no_passphrase)
    except _Passphrase:
        raise PoundError(f"--key {key} is protected by a passphrase: give the key without one "
                         f"(openssl pkey -in {key} -out desk.key, kept readable by you alone)") from None
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            raise PoundError(f"--key {key} is not the private key of --cert {cert}") from None
        raise PoundError(f"--cert {cert} and --key {key} cannot be read as a certificate and its private key "
                         f"(PEM): {exc.reason or exc.strerror or exc}") from None
    return _adapter()(str(cert), str(key), private_key_password=_no_passphrase)


# cheroot's builtin adapter shakes hands in the one thread that accepts connections: a client that
# connects and sends nothing holds every other off for the socket's timeout (10 s), again and again
# (cheroot issue 748, open at 11.1.2). Here accepting only wraps the socket, and the handshake is
# the first thing the worker thread serving the connection does; the tests time an HTTPS request
# while an idle connection is open, so a cheroot that changes these hooks is noticed.

def _adapter():
    from cheroot.ssl.builtin import BuiltinSSLAdapter

    class HandshakeInWorker(BuiltinSSLAdapter):
        def wrap(self, sock):
            s = self.context.wrap_socket(sock, do_handshake_on_connect=False, server_side=True)
            return s, {"wsgi.url_scheme": "https", "HTTPS": "on"}

    return HandshakeInWorker


def _connection():
    from cheroot.server import HTTPConnection

    class Handshaken(HTTPConnection):
        shaken = False

        def communicate(self):
            if not self.shaken:
                try:
                    self.socket.do_handshake()
                except ssl.SSLError as exc:
                    if exc.reason == "HTTP_REQUEST":        # http:// typed for https://
                        _plain_refusal(self.socket)
                    return False
                except OSError:                             # timed out, or the client went away
                    return False
                self.shaken = True
            return super().communicate()

    return Handshaken


def _plain_refusal(sock) -> None:
    text = b"this desk speaks HTTPS only: open it with https://"
    try:   # the TLS layer failed, so past it, on the connection itself
        socket.socket.sendall(sock, b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                              b"Content-Length: %d\r\n\r\n%s" % (len(text), text))
    except OSError:
        pass


def _not_yet(environ, start_response):        # the app is given once the port is known
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"the desk is starting"]


class Listening:
    """A server bound to HOST:PORT (PORT 0: a free one, then in .port), serving nothing until serve()."""

    def __init__(self, host: str, port: int, cert: Path | None = None, key: Path | None = None):
        from cheroot import wsgi

        adapter = tls_of(cert, key)
        self.host = host
        self.scheme = "https" if adapter else "http"
        self.server = wsgi.Server((bare(host), port), _not_yet, numthreads=THREADS, server_name=NAME)
        self.server.max_request_header_size = HEADER_BYTES
        if adapter is not None:
            self.server.ssl_adapter = adapter
            self.server.ConnectionClass = _connection()
        try:
            self.server.prepare()
        except OSError as exc:
            raise PoundError(f"cannot listen on {host}:{port} ({_why(exc)}); give another --port or --host") from None
        self.port = self.server.bind_addr[1]

    def url(self) -> str:
        """The address to open on this machine."""
        shown = "127.0.0.1" if is_every_address(self.host) else self.host
        return f"{self.scheme}://{in_url(shown)}:{self.port}/"

    def elsewhere(self) -> list[str]:
        """The addresses other machines may open, when the desk listens on all of this machine's."""
        if not is_every_address(self.host):
            return []                                   # the address url() gives is the one
        found = machine_addresses(ipv6=bare(self.host) != "0.0.0.0" and bare(self.host) != "")
        return [f"{self.scheme}://{a}:{self.port}/" for a in found
                if not is_loopback(a) and not a.startswith("[fe80:")]

    def serve(self, app, then=None) -> None:
        """Serve `app` until Ctrl-C (or, in the main thread, a SIGTERM, as a service manager stops
        it), then stop taking requests, finish those begun, and call `then`."""
        self.server.wsgi_app = app
        term = None
        if threading.current_thread() is threading.main_thread():
            term = signal.signal(signal.SIGTERM, _interrupt)
        try:
            self.server.serve()
        except KeyboardInterrupt:
            pass
        finally:
            self.server.stop()
            if then is not None:
                then()
            if term is not None:
                signal.signal(signal.SIGTERM, term)

    def stop(self) -> None:
        self.server.stop()


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _why(exc: OSError) -> str:
    if exc.strerror:
        return exc.strerror
    # cheroot joins the reason of each address it tried into one message
    found = re.findall(r"\[Errno -?\d+\] ([^)]+)\)", str(exc))
    return found[-1] if found else str(exc)
