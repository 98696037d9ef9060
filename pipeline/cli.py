"""The `pound` command line. Commands only: the work is done in the modules they call."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

from pipeline.core.errors import InputRejected, PoundError

EXIT_OK, EXIT_FAILED, EXIT_REJECTED = 0, 1, 2

MAIN_HELP = """\
Statutory accounts, findings and reconciliations for cattle pounds under the
Karnataka Cattle Trespass Act 1966, Chapter IV (ss.12-19).

examples:
  pound run data/sample --out out/            load a bundle, compute, write every export
  pound run data/sample --out out/ --as-of 2026-10-31
  pound ingest more_registers/ --db pound.duckdb
  pound build --db pound.duckdb --out out/
  pound report --db out/pound.duckdb --month 2026-10 --out reports/
  pound synth --out big/ --pounds 20 --months 24 --seed 7
  pound demo

exit status: 0 done (findings are results, not errors); 2 input rejected (every
reason is printed and nothing from a rejected file is kept); 1 anything else.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake exits 1: status 2 means a rejected bundle here."""

    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"pound: {message}\n")
        sys.exit(EXIT_FAILED)


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date written YYYY-MM-DD") from None


def _month(text: str) -> str:
    try:
        dt.date.fromisoformat(text + "-01")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a month written YYYY-MM") from None
    return text


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pound", description=MAIN_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--debug", action="store_true", help="show a traceback when something fails")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def cmd(name, help_, example):
        return sub.add_parser(name, help=help_, description=f"{help_}\n\nexample:\n  {example}",
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    r = cmd("run", "load a bundle into a fresh database, compute everything, write the exports",
            "pound run data/sample --out out/ --as-of 2026-10-31")
    r.add_argument("bundle", type=Path, help="the bundle folder (reference/, registers/, ledgers/)")
    r.add_argument("--out", type=Path, required=True, help="folder for the CSV exports and the workbook")
    r.add_argument("--as-of", type=_date, default=None, help="the date the accounts are drawn up to (default: today)")
    r.add_argument("--db", type=Path, default=None, help="database file to create (default: OUT/pound.duckdb)")
    r.add_argument("--params", type=Path, default=None, help="a TOML or JSON file overriding statutory readings and grace periods")

    i = cmd("ingest", "add a bundle to a persistent database (each file loads whole or not at all)",
            "pound ingest registers_2026-11/ --db pound.duckdb")
    i.add_argument("bundle", type=Path)
    i.add_argument("--db", type=Path, required=True, help="the database file (created if absent)")

    b = cmd("build", "recompute every output from what the database holds and write the exports",
            "pound build --db pound.duckdb --out out/ --as-of 2026-11-30")
    b.add_argument("--db", type=Path, required=True)
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--as-of", type=_date, default=None)
    b.add_argument("--params", type=Path, default=None)

    rp = cmd("report", "render the HTML reports of one month (monthly review, reconciliation, trends)",
             "pound report --db out/pound.duckdb --month 2026-10 --district Mysuru --out reports/")
    rp.add_argument("--db", type=Path, required=True)
    rp.add_argument("--month", type=_month, required=True, help="YYYY-MM")
    rp.add_argument("--district", default=None, help="limit the reports to one district")
    rp.add_argument("--out", type=Path, required=True)

    s = cmd("synth", "write a realistic synthetic bundle with planted violations (BUNDLE/planted.csv)",
            "pound synth --out synth/ --pounds 20 --months 24 --cases-per-month 30 --seed 7")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--pounds", type=_positive, default=12)
    s.add_argument("--months", type=_positive, default=12)
    s.add_argument("--cases-per-month", type=_positive, default=20)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--violation-rate", type=float, default=0.02,
                   help="share of cases given one planted violation (default 0.02)")
    s.add_argument("--start", type=_month, default=None, help="first month, YYYY-MM (default: so the last month is the one before today)")
    s.add_argument("--params", type=Path, default=None,
                   help="a TOML or JSON file of readings (as for pound run) that the bundle's accounts are to follow")

    d = cmd("demo", "run everything on the sample bundle and render the reports; prints where they are",
            "pound demo --out demo/")
    d.add_argument("--out", type=Path, default=Path("demo"))
    return p


def _print_rejections(result) -> None:
    for f in result.rejected:
        n = len(f.problems) + f.more
        print(f"REJECTED {f.label}: {n} problem(s); nothing from this file was loaded", file=sys.stderr)
        for prob in f.problems:
            print(f"  {prob.render()}", file=sys.stderr)
        if f.more:
            print(f"  ... and {f.more:,} more problem(s) in {f.label}, not listed", file=sys.stderr)


def _print_summary(result) -> None:
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    loaded = [f for f in result.files if f.status in ("loaded", "no_new_rows")]
    skipped = [f for f in result.files if f.status == "skipped"]
    rows = sum(f.new_rows for f in loaded)
    print(f"loaded {len(loaded)} file(s), {rows:,} new row(s); skipped {len(skipped)} already loaded; "
          f"rejected {len(result.rejected)}")


def cmd_ingest(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.load import db
    from pipeline.load.ingest import ingest

    if args.db.parent and not args.db.parent.exists():
        raise PoundError(f"the folder of --db, {args.db.parent}, does not exist")
    con = db.connect(args.db)
    try:
        progress = Progress()
        result = ingest(con, args.bundle, progress, require_reference=False)
        progress.close()
    finally:
        con.close()
    _print_summary(result)
    if result.rejected:
        _print_rejections(result)
        return EXIT_REJECTED
    return EXIT_OK


def cmd_run(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.load import db
    from pipeline.load.ingest import ingest

    out: Path = args.out
    target = args.db or out / "pound.duckdb"
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    if not args.bundle.is_dir():
        raise PoundError(f"bundle folder {args.bundle} does not exist" if not args.bundle.exists()
                         else f"{args.bundle} is not a folder")
    params = _load_params(args)
    # Everything is made in a scratch folder and moved into place only when all
    # of it succeeded: a rejected bundle (or a failure) leaves OUT as it was.
    scratch = Path(tempfile.mkdtemp(prefix="pound-run-"))
    try:
        tmp_db = scratch / "pound.duckdb"
        con = db.connect(tmp_db)
        try:
            progress = Progress()
            result = ingest(con, args.bundle, progress, require_reference=True)
            progress.close()
            _print_summary(result)
            if result.rejected:
                _print_rejections(result)
                print("nothing was written: correct the file(s) above and run again", file=sys.stderr)
                return EXIT_REJECTED
            written = _build_and_export(con, scratch / "out", params, progress)
        finally:
            con.close()
        out.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(tmp_db), str(target))
        print(f"database: {target}")
        for path in written:
            final = out / path.name
            shutil.move(str(path), str(final))
            print(f"wrote {final}")
        return EXIT_OK
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def cmd_build(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.load import db

    if not args.db.exists():
        raise PoundError(f"database {args.db} does not exist; create it with 'pound ingest' or 'pound run'")
    params = _load_params(args)
    con = db.connect(args.db)
    try:
        written = _build_and_export(con, args.out, params, Progress())
    finally:
        con.close()
    for path in written:
        print(f"wrote {path}")
    return EXIT_OK


def _load_params(args):
    from pipeline.core.params import Parameters

    as_of = args.as_of or dt.date.today()
    return Parameters.load(args.params, as_of=as_of)


def _build_and_export(con, out: Path, params, progress) -> list[Path]:
    """Compute every model, then write the CSV exports, the audit workbook and the parameters used."""
    from pipeline.build import build
    from pipeline.outputs.exports import write_csvs
    from pipeline.outputs.workbook import write_workbook

    build(con, params, progress)
    out.mkdir(parents=True, exist_ok=True)
    written = write_csvs(con, out, progress)
    progress.step("writing audit_workbook.xlsx")
    written.append(write_workbook(con, out / "audit_workbook.xlsx"))
    params_path = out / "parameters.toml"
    params_path.write_text(params.to_toml(), encoding="utf-8")
    written.append(params_path)
    progress.done(f"wrote {len(written)} files to {out}")
    return written


def cmd_report(args) -> int:
    from pipeline.reports.render import render_reports

    paths = render_reports(args.db, args.month, args.district, args.out)
    for p in paths:
        print(p)
    return EXIT_OK


def cmd_synth(args) -> int:
    from pipeline.core.params import Parameters
    from pipeline.core.progress import Progress
    from pipeline.synth import SynthConfig, write_bundle

    cfg = SynthConfig(pounds=args.pounds, months=args.months, cases_per_month=args.cases_per_month,
                      seed=args.seed, violation_rate=args.violation_rate, start=args.start)
    params = Parameters.load(args.params) if args.params else None
    summary = write_bundle(args.out, cfg, Progress(), params)
    print(summary)
    return EXIT_OK


def cmd_demo(args) -> int:
    """Run the sample bundle into OUT and render its busiest month's reports into OUT/reports.

    The accounts are drawn up to 2026-11-30, the last day of the sample's last month. The
    reports are of the sample's busiest month (most heads impounded, released or sold),
    2026-10: November 2026 holds a single impoundment, and a review of a quiet month shows
    little of what the reports do.
    """
    import time

    from pipeline.core.months import month_label
    from pipeline.core.paths import SAMPLE_BUNDLE
    from pipeline.read.database import connect
    from pipeline.reports.page import SAMPLE_AS_OF, busiest_month
    from pipeline.reports.render import render_reports

    out = Path(args.out)
    t0 = time.perf_counter()
    code = main(["run", str(SAMPLE_BUNDLE), "--out", str(out), "--as-of", SAMPLE_AS_OF.isoformat()])
    if code != EXIT_OK:
        raise PoundError(f"the sample bundle {SAMPLE_BUNDLE} did not run (exit status {code})")
    db_path = out / "pound.duckdb"
    con = connect(db_path)
    try:
        month = busiest_month(con)
    finally:
        con.close()
    print(f"rendering the reports of {month} ({month_label(month)}), the sample's busiest month", file=sys.stderr)
    paths = render_reports(db_path, month, None, out / "reports")
    print(f"done in {time.perf_counter() - t0:.1f} s; the reports open in any browser, offline:", file=sys.stderr)
    for p in paths:
        print(p)
    return EXIT_OK


COMMANDS = {"run": cmd_run, "ingest": cmd_ingest, "build": cmd_build, "report": cmd_report,
            "synth": cmd_synth, "demo": cmd_demo}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_FAILED
    try:
        return COMMANDS[args.command](args)
    except InputRejected as exc:
        for prob in exc.problems:
            print(prob.render(), file=sys.stderr)
        return EXIT_REJECTED
    except PoundError as exc:
        print(f"pound: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("pound: interrupted", file=sys.stderr)
        return EXIT_FAILED
    except Exception as exc:  # a defect, not the user's mistake: one line unless --debug
        if args.debug or os.environ.get("POUND_DEBUG") == "1":
            traceback.print_exc()
        else:
            print(f"pound: failed: {exc.__class__.__name__}: {exc} (run with --debug for the details)",
                  file=sys.stderr)
        return EXIT_FAILED


def entry() -> None:
    sys.exit(main())
