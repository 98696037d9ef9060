"""What every command shares: exit codes, the argument parser's house rules, value types."""

from __future__ import annotations

import argparse
import datetime as dt
import sys

EXIT_OK, EXIT_FAILED, EXIT_REJECTED = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake exits 1: status 2 means a rejected bundle here. It keeps its
    own list of its long options and whether it has commands, through argparse's public methods
    (its private _actions and _subparsers are not read)."""

    def add_argument(self, *args, **kwargs):
        action = super().add_argument(*args, **kwargs)
        self.__dict__.setdefault("long_options", []).extend(o for o in action.option_strings if o.startswith("--"))
        return action

    def add_subparsers(self, **kwargs):
        self.has_commands = True
        return super().add_subparsers(**kwargs)

    def error(self, message):
        """One line: what is wrong, and where every option is explained."""
        every = "command" if getattr(self, "has_commands", False) else "option"
        sys.stderr.write(f"pound: {message} ({self.prog} --help lists every {every}, with an example)\n")
        sys.exit(EXIT_FAILED)


def command(sub, name: str, help_: str, example: str) -> argparse.ArgumentParser:
    """A subcommand whose --help ends with an example."""
    return sub.add_parser(name, help=help_, description=f"{help_}\n\nexample:\n  {example}",
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def date(text: str) -> dt.date:
    """A date as the registers take it: 2026-10-05, or day first, 05/10/2026 or 05-10-2026."""
    for shape in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"):
        try:
            return dt.datetime.strptime(text.strip(), shape).date()
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a date: write it YYYY-MM-DD (2026-10-31), or day first "
                                     "(31/10/2026)")


def month(text: str) -> str:
    try:
        dt.date.fromisoformat(text + "-01")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a month written YYYY-MM") from None
    return text


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def seconds(text: str) -> float:
    try:
        n = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not n >= 0:
        raise argparse.ArgumentTypeError("must be 0 or more seconds")
    return n


def add_wait(parser: argparse.ArgumentParser) -> None:
    """--wait SECONDS: how long a command waits for a database another pound command is using."""
    from pipeline.core.locks import DEFAULT_WAIT

    parser.add_argument("--wait", type=seconds, default=DEFAULT_WAIT, metavar="SECONDS",
                        help="while another program is using the database, wait this long for it "
                             f"(default {DEFAULT_WAIT}), then stop")


def wait_of(args) -> float:
    from pipeline.core.locks import DEFAULT_WAIT

    return getattr(args, "wait", DEFAULT_WAIT)


def holds(db_of=lambda args: args.db, make_folder: bool = False):
    """The command holds its database from start to end (core/locks.py, holding): while another
    command or a desk step holds it, it waits --wait seconds, then is refused in one line naming
    who holds it. `db_of(args)`: the database (None: the command opens none this time);
    `make_folder`: the command makes the database's folder (pound run)."""
    import functools

    def wrap(run):
        @functools.wraps(run)
        def held(args) -> int:
            from pipeline.core.locks import holding

            db = db_of(args)
            if db is None:
                return run(args)
            with holding(db, wait_of(args), f"pound {args.command}", make_folder=make_folder):
                return run(args)
        return held
    return wrap


def add_scope_arguments(p) -> None:
    """--district, --local-authority and one period: --financial-year, --month or --from/--to."""
    p.add_argument("--district", default=None, help="limit to one district")
    p.add_argument("--local-authority", default=None, metavar="ID", help="limit to one local authority (its id)")
    p.add_argument("--financial-year", default=None, metavar="2026-27",
                   help="1 April to 31 March of the financial year")
    p.add_argument("--month", type=month, default=None, help="YYYY-MM")
    p.add_argument("--from", dest="start", type=date, default=None, metavar="DATE", help="first day: YYYY-MM-DD, or DD/MM/YYYY")
    p.add_argument("--to", dest="end", type=date, default=None, metavar="DATE", help="last day: YYYY-MM-DD, or DD/MM/YYYY")


__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_REJECTED", "Parser", "add_scope_arguments", "add_wait",
           "command", "date", "holds", "month", "positive", "seconds", "wait_of"]
