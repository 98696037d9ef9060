"""The `pound` command line. Commands only: the work is done in the modules they call.

Each module of this package adds its commands (`add(sub)`) and the function each runs;
main() parses, dispatches, and turns what went wrong into an exit status and one line.
"""

from __future__ import annotations

import os
import sys
import traceback

from pipeline.cli import close, data, documents, export, month, report, synth, template, validate, workbook
from pipeline.cli.common import EXIT_FAILED, EXIT_REJECTED, Parser
from pipeline.core.errors import InputRejected, PoundError, StaleFigures

MAIN_HELP = """\
Statutory accounts, findings and reconciliations for cattle pounds under the
Karnataka Cattle Trespass Act 1966, Chapter IV (ss.12-19).

examples:
  pound run data/sample --out out/            load a bundle, compute, write every export
  pound run data/sample --out out/ --as-of 2026-10-31
  pound month mysuru/ --db pound.duckdb --month 2026-11   load what is new, build, write the review
  pound ingest more_registers/ --db pound.duckdb
  pound build --db pound.duckdb --out out/
  pound report --db out/pound.duckdb --month 2026-10 --out reports/
  pound close --db out/pound.duckdb --month 2026-10 --by "District Magistrate" --bundle mysuru/
  pound verify mysuru/closes/2026-10
  pound workbook --db out/pound.duckdb --local-authority LA01 --financial-year 2026-27 --out LA01.xlsx
  pound export --db out/pound.duckdb --out tables/ --format parquet
  pound documents --db out/pound.duckdb --out papers/ --pdf
  pound synth --out mysuru/ --district Mysuru --pounds 20 --months 24 --seed 7
  pound template --bundle mysuru/ --pound P01 --month 2026-11 --db out/pound.duckdb
  pound validate --db out/pound.duckdb        run the great-expectations suites over the registers held
  pound demo
  pound desk --bundle mysuru/ --db pound.duckdb     the office's month on one page in the browser

exit status: 0 done (findings are results, not errors); 2 input rejected (every
reason is printed and nothing from a rejected file is kept); 1 anything else.
"""

COMMAND_MODULES = (data, month, report, synth, validate, close, workbook, export, documents, template)


def plugged_in() -> list:
    """Command modules of other packages, named by the `pound.commands` entry point (`pound desk`):
    this package does not import them."""
    from importlib.metadata import entry_points

    return [ep.load() for ep in sorted(entry_points(group="pound.commands"), key=lambda ep: ep.name)]


def build_parser(command: str | None = None) -> Parser:
    """The parser of every command; when `command` names one of this package's own, the plugged-in
    ones are left out (finding them reads every installed package's metadata: a tenth of a second,
    a twentieth of `pound run data/sample`)."""
    import argparse

    p = Parser(prog="pound", description=MAIN_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--debug", action="store_true", help="show a traceback when something fails")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in COMMAND_MODULES:
        module.add(sub)
    if command is None or command not in sub.choices:
        for module in plugged_in():
            module.add(sub)
    p.commands = sub.choices
    return p


def command_named(argv: list[str]) -> str | None:
    """The command the arguments name: the first that is not an option (`pound` itself takes
    only --debug, which takes no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def _parse(parser: Parser, argv: list[str]):
    """The arguments. A mistyped command or option is named first, with the one meant when one is
    close, before argparse says something less to the point (that --out is missing, when --otu was
    typed for it); an option a command does not take is refused by that command's parser, so that
    the message points at `pound <command> --help`."""
    _name_typos(parser, argv)
    args, extra = parser.parse_known_args(argv)
    if extra:
        parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _name_typos(parser: Parser, argv: list[str]) -> None:
    import difflib

    def options(p) -> list[str]:
        return list(getattr(p, "long_options", []))

    command, known = parser, options(parser)
    for token in argv:
        if token == "--":
            return
        if token.startswith("--"):
            name = token.split("=")[0]
            # argparse takes an option's unique abbreviation too (--as for --as-of)
            if not any(k.startswith(name) for k in known):
                # compared without the dashes, which every option shares
                meant = difflib.get_close_matches(name[2:], [k[2:] for k in known], 1)
                command.error(f"{name}: did you mean --{meant[0]}?" if meant
                              else f"{name} is not an option of {command.prog}")
        elif command is parser and not token.startswith("-"):
            if token not in parser.commands:
                meant = difflib.get_close_matches(token, list(parser.commands), 1)
                if meant:
                    parser.error(f"{token}: did you mean {meant[0]}?")
                return                  # argparse lists the commands
            command, known = parser.commands[token], options(parser.commands[token])


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_named(argv))
    args = _parse(parser, argv)
    if not args.command:
        parser.print_help()
        return EXIT_FAILED
    try:
        return args.func(args)
    except InputRejected as exc:
        for prob in exc.problems:
            print(prob.render(), file=sys.stderr)
        return EXIT_REJECTED
    except StaleFigures as exc:
        print(f"pound: {exc}", file=sys.stderr)
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


class _QuietWhenGone:
    """Standard output that falls silent, rather than failing the command, once whatever read it
    has gone (`pound ... | head`): the work goes on and is written whole; only the lines nobody
    reads are dropped."""

    def __init__(self, inner):
        self._inner = inner
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._inner.write(text)
            except BrokenPipeError:
                self._silence()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._inner.flush()
            except BrokenPipeError:
                self._silence()

    def _silence(self) -> None:
        self._gone = True
        try:        # so that the interpreter's own flush at exit finds somewhere to write
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._inner.fileno())
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name):
        return getattr(self._inner, name)


def entry() -> None:
    sys.stdout = _QuietWhenGone(sys.stdout)
    sys.exit(main())
