"""A PNG read into grey levels, and two images compared with a tolerance: enough for the
screenshots Chromium takes (8-bit grey, RGB or RGBA, not interlaced), without an imaging library."""

from __future__ import annotations

import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}      # colour type -> samples a pixel


def grey(png: bytes) -> tuple[int, int, list[bytearray]]:
    """(width, height, rows of grey levels 0-255) of a PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, data, head = 8, b"", None
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + size]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        at += 12 + size
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in _CHANNELS and not interlace, (depth, colour, interlace)
    n = _CHANNELS[colour]
    raw = zlib.decompress(data)
    stride = width * n
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b = prev[i]
            c = prev[i - n] if i >= n else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if n >= 3:
            rows.append(bytearray((line[x * n] * 299 + line[x * n + 1] * 587 + line[x * n + 2] * 114) // 1000
                                  for x in range(width)))
        else:
            rows.append(bytearray(line[x * n] for x in range(width)))
    return width, height, rows


def differing(a: bytes, b: bytes, level: int = 96) -> float:
    """The share of pixels whose grey levels differ by more than `level` (1.0 when the sizes differ)."""
    wa, ha, ra = grey(a)
    wb, hb, rb = grey(b)
    if (wa, ha) != (wb, hb):
        return 1.0
    off = sum(1 for y in range(ha) for x in range(wa) if abs(ra[y][x] - rb[y][x]) > level)
    return off / (wa * ha)


def inked(png: bytes, level: int = 128) -> int:
    """How many pixels are darker than `level` (text drawn, not a blank box)."""
    _, _, rows = grey(png)
    return sum(1 for row in rows for v in row if v < level)
