"""pound template: the workbook of the registers a pound-keeper or a clerk fills in."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, command
from pipeline.core.errors import PoundError


def add(sub) -> None:
    t = command(sub, "template", "write the workbook of the registers to fill in (one sheet a register, lists "
                "from the bundle's reference files); saved into BUNDLE/registers/ it loads as it is",
                "pound template --bundle mysuru/ --out registers_2026-11.xlsx --pound P01")
    t.add_argument("--bundle", type=Path, required=True,
                   help="the bundle (folder or .zip) whose reference/ files give the lists of pounds and classes")
    t.add_argument("--out", type=Path, required=True, help="the workbook to write, such as registers_2026-11.xlsx")
    t.add_argument("--pound", default=None, metavar="ID", help="a pound-keeper's copy: that pound only")
    t.set_defaults(func=cmd_template)


def cmd_template(args) -> int:
    from pipeline.outputs.template import write_template

    out: Path = args.out
    if out.suffix.lower() != ".xlsx":
        raise PoundError(f"--out {out}: the workbook's name must end in .xlsx (registers_2026-11.xlsx)")
    if out.exists():
        raise PoundError(f"--out {out} exists; a workbook that may be filled in is never written over: give "
                         "another name")
    if not out.parent.is_dir():
        raise PoundError(f"the folder of --out, {out.parent}, does not exist")
    print(write_template(args.bundle, out, args.pound))
    return EXIT_OK
