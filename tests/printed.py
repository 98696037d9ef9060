"""Reading printed pages and papers back (pdftotext): ids, days and months broken across lines."""

from __future__ import annotations

import re
import subprocess

# an id, day or month broken at one of its hyphens: "2026-" / "09", "H-2610-" / "018", "09-" / "09-2026"
_SPLIT = re.compile(r"(?m)(?<![\w-])(?:[A-Za-z]{1,5}\d*|\d+)(?:-\w+)*-[ \t]*\n[ \t]*\w*\d")


# a month or day broken before its hyphen, as a slanted axis label reads back: "20" / "26" / "-03"
_SPLIT_BEFORE = re.compile(r"(?m)^[ \t]*\d+[ \t]*\n[ \t]*-\d+")


def splits(text: str) -> list[str]:
    """The places in a PDF's text where an id, a day or a month is broken across two lines."""
    found = sorted([*_SPLIT.finditer(text), *_SPLIT_BEFORE.finditer(text)], key=lambda m: m.start())
    return [m.group().replace("\n", "/") for m in found]



def pdf_text(pdf, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
