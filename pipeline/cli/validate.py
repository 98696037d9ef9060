"""pound validate: run the great-expectations suites themselves over what a database holds."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, EXIT_REJECTED, add_wait, command, holds, wait_of


def add(sub) -> None:
    v = command(sub, "validate",
                "check every register a database holds with its great-expectations suite (expectations/), "
                "run by great-expectations itself",
                "pound validate --db out/pound.duckdb --register impoundments --register releases")
    v.add_argument("--db", type=Path, required=True, help="a database made by pound run or pound ingest")
    v.add_argument("--register", action="append", default=None, metavar="NAME",
                   help="only this register (repeat for several; default: every register)")
    v.add_argument("--sql", action="store_true",
                   help="evaluate the suites as the loader does (compiled to SQL) instead of with great-expectations")
    add_wait(v)
    v.set_defaults(func=cmd_validate)


@holds()
def cmd_validate(args) -> int:
    from pipeline.core.errors import PoundError
    from pipeline.core.registers import BY_NAME, REGISTERS
    from pipeline.load.checks import validate_loaded
    from pipeline.read.database import connect

    names = args.register or [r.name for r in REGISTERS]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise PoundError(f"no register called {', '.join(unknown)}; the registers are "
                         + ", ".join(r.name for r in REGISTERS))
    con = connect(args.db, wait=wait_of(args))
    judge = "the compiled SQL" if args.sql else "great-expectations"
    failed = 0
    try:
        for name in names:
            rows, problems = validate_loaded(con, BY_NAME[name], with_gx=not args.sql)
            verdict = "every expectation met" if not problems else f"{len(problems)} problem(s)"
            print(f"{name}: {rows:,} row(s) checked by {judge}: {verdict}")
            for p in problems:
                print("  " + p.render())
            failed += bool(problems)
    finally:
        con.close()
    return EXIT_REJECTED if failed else EXIT_OK
