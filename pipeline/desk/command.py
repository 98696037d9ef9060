"""pound desk: serve the office desk for a bundle and a database, on this machine only unless told."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from pipeline.core.errors import PoundError

LOOPBACK = "127.0.0.1"
EXAMPLE = ("pound desk --bundle mysuru/ --db pound.duckdb\n"
           "  pound desk --bundle mysuru/ --db pound.duckdb --port 8050 --out desk-out/\n"
           "  pound desk --bundle mysuru/ --db pound.duckdb --host 0.0.0.0 --password-file desk.secret "
           "--cert desk.crt --key desk.key\n"
           "  pound desk --bundle mysuru/ --db pound.duckdb --host 0.0.0.0 --password-file desk.secret "
           "--allowed-host clerk-pc.local\n\n"
           "beyond this machine: the desk answers at the addresses it listens on (each of this machine's with\n"
           "--host 0.0.0.0, or :: for IPv6 too) and at the names given with --allowed-host, never at another\n"
           "name; after 5 wrong passwords from one address each further try waits, after 20 it is locked out\n"
           "for 15 minutes. Without --cert and --key the password crosses the network in clear.")


def add(sub) -> None:
    d = sub.add_parser("desk", help="the office desk: the month (load, review, close, verify, papers) on one "
                       "web page at http://127.0.0.1:PORT/", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="the office desk: the month (load, review, close, verify, papers) on one web page "
                                   "in the browser, served on this machine only unless --host says otherwise"
                                   "\n\nexamples:\n  " + EXAMPLE)
    d.add_argument("--bundle", type=Path, required=True, help="the bundle folder (reference/, registers/, ledgers/)")
    d.add_argument("--db", type=Path, required=True, help="the database file (created by the first load)")
    d.add_argument("--out", type=Path, default=None,
                   help="folder for month_MONTH/ (the review, as pound month writes it; its exports/ and papers/) "
                        "(default: the database's folder)")
    d.add_argument("--port", type=int, default=8043, help="the port (default 8043; 0: a free one, printed)")
    d.add_argument("--host", default=LOOPBACK,
                   help=f"the address to listen on (default {LOOPBACK}, this machine only; 0.0.0.0 or :: every "
                        "address of this machine); any but a loopback address needs --password-file")
    d.add_argument("--users", type=Path, default=None, metavar="FILE",
                   help="the desk's people (pound users add writes the file): each logs in with a name and password, "
                        "and may do what the role allows (clerk, dm, auditor); without it the desk is one office user")
    d.add_argument("--password-file", type=Path, default=None,
                   help="a file whose first line is the password every request must then carry")
    d.add_argument("--cert", type=Path, default=None,
                   help="serve HTTPS with this certificate (PEM; give --key too), so that the password and the "
                        "registers do not cross the network in clear")
    d.add_argument("--key", type=Path, default=None, help="the certificate's private key (PEM, without a passphrase)")
    d.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a further name (or address) the desk answers to, as the office types it in the browser, "
                        "e.g. clerk-pc.local (repeatable)")
    d.add_argument("--open", action="store_true", help="open the desk in the browser once it is listening")
    d.add_argument("--papers-lang", choices=("en", "kn", "both"), default=None,
                   help="the language of the papers \"Make the papers\" writes (default: the parameter papers_lang, en)")
    d.add_argument("--max-upload-mb", type=int, default=50, help="the largest file taken (default 50 MB)")
    d.set_defaults(func=cmd_desk)

    u = sub.add_parser("users", help="the desk's people: pound users add NAME --role ROLE --users FILE",
                       description="the people of pound desk --users FILE, each with a role: clerk (files, load, "
                                   "review, papers, workbooks), dm (also decides, closes, reopens; signs the close "
                                   "with the name given), auditor (reads, downloads, verifies; changes nothing). "
                                   "The password is asked twice and kept only as its argon2id hash.")
    a = u
    a.add_argument("verb", choices=("add",), help="add: add a person (or set a person's role and password again)")
    a.add_argument("name", help="the name typed to log in; a DM's is the name the close is signed with")
    a.add_argument("--role", required=True, choices=("clerk", "dm", "auditor"))
    a.add_argument("--users", type=Path, required=True, metavar="FILE", help="the file of the desk's people")
    a.add_argument("--password-file", type=Path, default=None,
                   help="read the password from this file's first line, not from the terminal")
    u.set_defaults(func=cmd_users)


def password_of(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PoundError(f"--password-file {path}: cannot be read ({exc.strerror})") from None
    password = text[0].strip() if text else ""
    if len(password) < 8:
        raise PoundError(f"--password-file {path}: its first line must hold a password of at least 8 characters")
    return password


def cmd_desk(args) -> int:
    from pipeline.desk.actions import Places
    from pipeline.desk.app import create_app
    from pipeline.desk.hosts import allowed_name, is_loopback
    from pipeline.desk.server import Listening

    if args.users is not None and args.password_file is not None:
        raise PoundError("give --users FILE or --password-file FILE, not both: with --users each person logs in "
                         "with a name and password of their own")
    if not is_loopback(args.host) and args.password_file is None and args.users is None:
        raise PoundError(f"--host {args.host} lets other machines reach the desk: give --password-file FILE "
                         "or --users FILE too (every request must then carry a password)")
    password = password_of(args.password_file)
    from pipeline.desk import people

    known = people.read(args.users) if args.users is not None else None
    allowed = [allowed_name(a) for a in args.allowed_host]
    if not args.bundle.is_dir():
        raise PoundError(f"bundle folder {args.bundle} does not exist")
    if args.db.is_dir():
        raise PoundError(f"--db {args.db} is a folder: give the database file, for example {args.db / 'pound.duckdb'}")
    if not args.db.parent.exists():
        raise PoundError(f"the folder of --db, {args.db.parent}, does not exist")
    places = Places(args.bundle.resolve(), args.db.resolve(), (args.out or args.db.parent).resolve(), args.papers_lang)
    server = Listening(args.host, args.port, args.cert, args.key)
    try:
        app = create_app(places, host=args.host, port=server.port, password=password,
                         max_bytes=args.max_upload_mb * 1024 * 1024, allowed_hosts=allowed, people=known)
    except BaseException:
        server.stop()
        raise
    url = server.url()
    if not is_loopback(args.host) and server.scheme == "http":
        print("warning: the password and the registers cross the network in clear (plain HTTP): "
              "give --cert FILE --key FILE (a certificate for this machine and its key, PEM) to serve HTTPS",
              file=sys.stderr, flush=True)
    said = [f"the desk is at {url} (open it in the browser; Ctrl-C stops it)"]
    others = [f"{server.scheme}://{a}:{server.port}/" for a in allowed] + server.elsewhere()
    if others:
        said.append(f"other machines open {' or '.join(others[:4])}")
    print("\n".join(said), flush=True)          # one write: whoever reads the first line has them all
    if args.open:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, (url,)).start()
    server.serve(app, then=app.extensions["desk"].wait)
    return 0


def cmd_users(args) -> int:
    from pipeline.desk import people

    if args.password_file is not None:
        try:
            lines = args.password_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise PoundError(f"--password-file {args.password_file}: cannot be read ({exc.strerror})") from None
        password = lines[0].strip() if lines else ""
    else:
        import getpass

        password = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("the same again: ") != password:
            raise PoundError("the two passwords differ; nothing was written")
    person = people.add(args.users, args.name, args.role, password)
    print(f"{person.name} ({person.role}) is in {args.users}; pound desk --users {args.users} lets them in")
    return 0
