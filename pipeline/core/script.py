"""Register text as the pages and papers write it: Kannada marked as Kannada, ids and dates whole.

The pages and papers are written in English (lang="en"); a register value may be written in
Kannada (a name, a village, a place). marked() escapes a text and puts each run of Kannada script
in <span lang="kn">, so that a screen reader speaks it as Kannada and a browser picks a Kannada
font and line breaking for it; and each word of letters and digits joined by hyphens that holds a digit (a
case id H-2610-018, a day 09-09-2026, a month 2026-09, a rule S15-NOTICE-MISSING) in
<span class="nowrap">, which the pages' and papers' stylesheets keep on one line (white-space:
nowrap), on screen and on paper; the text itself is unchanged, so it copies as it reads.
The reports' tables (filter `mark` of pipeline.reports.html), the charts' tables and the papers'
templates (filter `mark` of pipeline.documents.render) write register text through it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

# Kannada's block (U+0C80-U+0CFF); a run goes on over the spaces and punctuation between two words
_KANNADA = r"[\u0C80-\u0CFF]+(?:[\s.,'()\-]+[\u0C80-\u0CFF]+)*"
# letters and digits joined by hyphens, with a digit in them (in a file's name too:
# impoundments_2026-11.csv keeps its 2026-11 whole)
_WHOLE = r"(?<![A-Za-z0-9-])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![A-Za-z0-9-])"
# a long word of a path or a file's name may break after a slash or an underscore (<wbr>, no character)
_LONG = re.compile(r"\S{20,}")
_JOIN = re.compile(r"(?<=\w)[/_](?=\w)")
_TOKEN = re.compile(f"(?P<kn>{_KANNADA})|(?P<whole>{_WHOLE})")


def has_kannada(text) -> bool:
    return text is not None and re.search(_KANNADA, str(text)) is not None


# a text with none of these has nothing to mark: no Kannada, no word holding a digit, no long word
_ANY = re.compile(r"[\d\u0C80-\u0CFF]|\S{20}")


def marked(text) -> str:
    """`text` escaped as HTML, Kannada runs in <span lang="kn">, ids and dates in <span class="nowrap">,
    and <wbr> after each slash and underscore of a word of 20 characters or more (a path, a file's name)."""
    if text is None:
        return ""
    s = str(text)
    if _ANY.search(s) is None:          # most words of a page's tables: escaped, nothing more
        return escape(s, quote=True)
    return _marked(s)


@lru_cache(maxsize=8192)
def _marked(s: str) -> str:
    """marked() of a text with something to mark (the same ids, days and names come back, row after row)."""
    breaks = {m.start() + b.end() for m in _LONG.finditer(s) for b in _JOIN.finditer(m.group())}

    def plain(a: int, b: int) -> str:
        cuts = [a] + sorted(p for p in breaks if a < p <= b) + [b]
        return "<wbr>".join(escape(s[x:y], quote=True) for x, y in zip(cuts, cuts[1:], strict=False))

    out, last = [], 0
    for m in _TOKEN.finditer(s):
        out.append(plain(last, m.start()))
        attr = 'lang="kn"' if m.lastgroup == "kn" else 'class="nowrap"'
        out.append(f"<span {attr}>{escape(m.group(), quote=True)}</span>")
        last = m.end()
    out.append(plain(last, len(s)))
    return "".join(out)
