"""pound desk: serve the office desk for a bundle and a database, on this machine only unless told."""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from pipeline.core.errors import PoundError

LOOPBACK = "127.0.0.1"
EXAMPLE = ("pound desk --bundle mysuru/ --db pound.duckdb\n"
           "  pound desk --bundle mysuru/ --db pound.duckdb --port 8050 --out desk-out/\n"
           "  pound desk --bundle mysuru/ --db pound.duckdb --host 0.0.0.0 --password-file desk.secret")


def add(sub) -> None:
    d = sub.add_parser("desk", help="the office desk: the month (load, review, close, verify, papers) on one "
                       "web page at http://127.0.0.1:PORT/", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="the office desk: the month (load, review, close, verify, papers) on one web page "
                                   "in the browser, served on this machine only\n\nexamples:\n  " + EXAMPLE)
    d.add_argument("--bundle", type=Path, required=True, help="the bundle folder (reference/, registers/, ledgers/)")
    d.add_argument("--db", type=Path, required=True, help="the database file (created by the first load)")
    d.add_argument("--out", type=Path, default=None,
                   help="folder for month_MONTH/ (the review, as pound month writes it; its exports/ and papers/) "
                        "(default: the database's folder)")
    d.add_argument("--port", type=int, default=8043, help="the port (default 8043)")
    d.add_argument("--host", default=LOOPBACK,
                   help=f"the address to listen on (default {LOOPBACK}, this machine only); any other needs "
                        "--password-file")
    d.add_argument("--password-file", type=Path, default=None,
                   help="a file whose first line is the password every request must then carry")
    d.add_argument("--open", action="store_true", help="open the desk in the browser once it is listening")
    d.add_argument("--max-upload-mb", type=int, default=50, help="the largest file taken (default 50 MB)")
    d.set_defaults(func=cmd_desk)


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
    from werkzeug.serving import make_server

    from pipeline.desk.actions import Places
    from pipeline.desk.app import create_app

    if args.host not in (LOOPBACK, "localhost") and args.password_file is None:
        raise PoundError(f"--host {args.host} lets other machines reach the desk: give --password-file FILE too "
                         "(every request must then carry the password)")
    password = password_of(args.password_file)
    if not args.bundle.is_dir():
        raise PoundError(f"bundle folder {args.bundle} does not exist")
    if args.db.is_dir():
        raise PoundError(f"--db {args.db} is a folder: give the database file, for example {args.db / 'pound.duckdb'}")
    if not args.db.parent.exists():
        raise PoundError(f"the folder of --db, {args.db.parent}, does not exist")
    places = Places(args.bundle.resolve(), args.db.resolve(), (args.out or args.db.parent).resolve())
    app = create_app(places, host=args.host, port=args.port, password=password,
                     max_bytes=args.max_upload_mb * 1024 * 1024)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        raise PoundError(f"cannot listen on {args.host}:{args.port} ({exc.strerror}); give another --port") from None
    url = f"http://{args.host}:{server.port}/"
    print(f"the desk is at {url} (open it in the browser; Ctrl-C stops it)", flush=True)
    if args.open:
        import webbrowser

        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        app.extensions["desk"].wait()
    return 0
