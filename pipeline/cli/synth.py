"""pound synth and pound demo: a synthetic bundle, and the sample run end to end."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.cli import data
from pipeline.cli.common import EXIT_OK, add_wait, command, holds, month, positive
from pipeline.core.errors import PoundError


def add(sub) -> None:
    s = command(sub, "synth", "write a realistic synthetic bundle with planted violations (BUNDLE/planted.csv)",
                "pound synth --out mysuru/ --district Mysuru --pounds 20 --months 24 --cases-per-month 30 --seed 7")
    s.add_argument("--out", type=Path, required=True, help="the bundle folder to write (new, or empty)")
    s.add_argument("--district", type=district, default=None, metavar="NAME",
                   help="one district of that name, every pound in it: a district of Karnataka synth knows the "
                        "livestock of, such as Mysuru or Belagavi (default: about one district for every six pounds)")
    s.add_argument("--pounds", type=positive, default=12, help="how many pounds (default 12)")
    s.add_argument("--months", type=positive, default=12, help="how many months of registers (default 12)")
    s.add_argument("--cases-per-month", type=positive, default=20, help="cases impounded per pound a month (default 20)")
    s.add_argument("--seed", type=int, default=1, help="the same seed writes the same bundle, byte for byte (default 1)")
    s.add_argument("--violation-rate", type=float, default=0.02,
                   help="share of cases given one planted violation (default 0.02)")
    s.add_argument("--start", type=month, default=None,
                   help="first month, YYYY-MM (default: so the last month is the one before today)")
    s.add_argument("--params", type=Path, default=None,
                   help="a TOML or JSON file of readings (as for pound run) that the bundle's accounts are to follow")
    s.set_defaults(func=cmd_synth)

    d = command(sub, "demo", "run everything on the sample bundle and render the reports; prints where they are",
                "pound demo --out demo/")
    d.add_argument("--out", type=Path, default=Path("demo"), help="folder for the database, exports and reports (default demo/)")
    add_wait(d)
    d.set_defaults(func=cmd_demo)


def district(text: str) -> str:
    """A district synth knows the make-up of (its livestock census mix), in any case."""
    import difflib

    from pipeline.synth.config import DISTRICTS  # numpy: only when the option is given

    by_fold = {d.casefold(): d for d in DISTRICTS}
    if text.strip().casefold() in by_fold:
        return by_fold[text.strip().casefold()]
    meant = difflib.get_close_matches(text.strip().casefold(), list(by_fold), 1)
    raise argparse.ArgumentTypeError(f"{text!r}: did you mean {by_fold[meant[0]]}?" if meant else
                                     f"{text!r} is not a district synth knows; one of {', '.join(DISTRICTS)}")


def cmd_synth(args) -> int:
    from pipeline.core.params import Parameters
    from pipeline.core.progress import Progress
    from pipeline.synth import SynthConfig, write_bundle

    cfg = SynthConfig(pounds=args.pounds, months=args.months, cases_per_month=args.cases_per_month,
                      seed=args.seed, violation_rate=args.violation_rate, start=args.start,
                      district=args.district)
    params = Parameters.load(args.params) if args.params else None
    summary = write_bundle(args.out, cfg, Progress(), params)
    print(summary)
    return EXIT_OK


@holds(lambda args: Path(args.out) / "pound.duckdb", make_folder=True)
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
    from pipeline.steps import run
    from pipeline.steps.review import write_review

    out = Path(args.out)
    t0 = time.perf_counter()
    code = data.said_run(run(SAMPLE_BUNDLE, out, as_of=SAMPLE_AS_OF))
    if code != EXIT_OK:
        raise PoundError(f"the sample bundle {SAMPLE_BUNDLE} did not run (exit status {code})")
    db_path = out / "pound.duckdb"
    con = connect(db_path)
    try:
        month = busiest_month(con)
    finally:
        con.close()
    print(f"rendering the reports of {month} ({month_label(month)}), the sample's busiest month", file=sys.stderr)
    paths = write_review(db_path, month, None, out / "reports")
    print(f"done in {time.perf_counter() - t0:.1f} s; the reports open in any browser, offline:", file=sys.stderr)
    for p in paths:
        print(p)
    return EXIT_OK
