"""Whether DuckDB's CSV reader would read a CSV file exactly as Python's csv module and pandas do.

The loader's own reading of CSV files (bundle.py) is Python's csv module and pandas; DuckDB's
reader (cells.py) is many times faster, and reads the same cells from a plain file: one with no
NUL byte, no carriage return but in CRLF, no blank line before the last row (DuckDB skips one,
which would shift the row numbers after it) and no space beside a double quote (DuckDB drops
spaces around a quoted cell; pandas keeps them). These are told from the bytes here. Rows of
another width, a stray quote and cells longer than csv.field_size_limit() make DuckDB's read
fail, or are found after it (cells.py), and the file is then read in Python after all.
"""

from __future__ import annotations

from dataclasses import dataclass

_COMMA, _LF = 0x2C, 0x0A
# Up to this size a file's bytes are searched with Python's own bytes methods; a larger one with
# numpy, three times faster on a state bundle's files but 0.15 s to import, which a district's
# run (of files of a few kilobytes) need not pay. The two give the same answers (a test says so).
NUMPY_FROM_BYTES = 1 << 20


@dataclass
class PlainCsv:
    """What cells.py needs of a plain CSV file besides its path."""

    names: list[str]                  # the header, normalised
    commas: int                       # in the whole file
    lines: int | None                 # its lines but blank ones at the end, when it holds no quote
    quoted: bool                      # whether it holds a double quote at all
    longest: int                      # the most bytes a cell can have: the file's, or its longest line's


def plain_csv(data: bytes, names: list[str], numpy_from: int = NUMPY_FROM_BYTES) -> PlainCsv | None:
    """The file as cells.py reads it, or None when it is not plain (it is then read in Python)."""
    if b"\x00" in data:
        return None
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None
    quoted = b'"' in data
    body = data.rstrip(b"\r\n")
    if quoted and (b"\n\n" in body or b"\n\r\n" in body or b' "' in data or b'" ' in data):
        return None           # a line end may be in a quoted cell: blank lines are looked for as such
    scan = _scan_numpy if len(data) >= numpy_from else _scan_bytes
    commas, lines, longest = scan(data, len(body), quoted)
    return PlainCsv(names, commas, lines, quoted, longest)


def _scan_bytes(data: bytes, end: int, quoted: bool) -> tuple[int, int | None, int]:
    """(commas, lines, longest) of a small file. Without a quote every record is a line:
    cells.py compares the count of lines with the records DuckDB read, and a cell is at most
    as long as its line (with the line's end)."""
    lines, longest = None, len(data)
    if not quoted:
        body = data[:end]
        lines = body.count(b"\n") + 1
        longest = max(map(len, body.split(b"\n"))) + 1
    return data.count(b","), lines, longest


def _scan_numpy(data: bytes, end: int, quoted: bool) -> tuple[int, int | None, int]:
    """What _scan_bytes tells, for a large file."""
    import numpy as np

    a = np.frombuffer(data, dtype=np.uint8)
    lines, longest = None, len(data)
    if not quoted:
        ends = np.flatnonzero(a[:end] == _LF)
        lines = ends.size + 1
        longest = int(np.diff(ends, prepend=-1, append=end).max())
    return int(np.count_nonzero(a == _COMMA)), lines, longest
