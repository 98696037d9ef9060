"""What a report page loads: plotly.js, shared by the pages of a folder as one file beside them
(share_plotly, plotly_beside) rather than 4.8 MB embedded in each, and never a script or a style
from off the machine (strip_remote, remote_references)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from pipeline.core.whole import write_whole

_REMOTE_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>\s*</script\s*>", re.I)
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.I)


def strip_remote(page: str) -> str:
    """Remove any <script src> or <link href> that points off the machine (a guard; the template adds none)."""
    return _REMOTE_LINK.sub("", _REMOTE_SCRIPT.sub("", page))


def remote_references(page: str) -> list[str]:
    """The <script src> and <link href> tags of a page that would load from the network."""
    return _REMOTE_SCRIPT.findall(page) + _REMOTE_LINK.findall(page)


PLOTLY_FILE = "plotly.min.js"      # the copy of plotly.js the pages of a folder share


@functools.cache
def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


@functools.cache
def _plotly_embedded() -> tuple[str, int]:
    """plotly.js as plotly's renderer embeds it in a page, and its size in bytes as a file."""
    js = _plotly_js()
    return f"<script>{js}</script>", len(js.encode("utf-8"))


def plotly_beside(folder: Path) -> None:
    """PLOTLY_FILE in `folder`, this installation's plotly.js, written whole unless it is there."""
    target = Path(folder) / PLOTLY_FILE
    if not target.exists() or target.stat().st_size != _plotly_embedded()[1]:
        write_whole(target, _plotly_js(), own=True)   # pages of one folder rendered at once


def share_plotly(nb, folder: Path) -> None:
    """The executed notebook `nb` with its embedded plotly.js replaced by a reference to PLOTLY_FILE
    in `folder` (written there once, whole or not at all). The script embedded is the very text of
    the plotly package installed here, which plotly's renderer shows once, before a page's first
    chart; a notebook without it (no chart) is left as it is. Done to the outputs, before the page is
    made: the page, 4.8 MB lighter, is then made, checked and written without carrying the library
    through (about 0.06 CPU s a page), and is the page that replacing it afterwards gave."""
    embedded = _plotly_embedded()[0]
    for cell in nb.cells:
        for output in cell.get("outputs", ()):
            html = output.get("data", {}).get("text/html")
            html = "".join(html) if isinstance(html, list) else html
            if isinstance(html, str) and embedded in html:
                plotly_beside(folder)
                output["data"]["text/html"] = html.replace(
                    embedded, f'<script src="{PLOTLY_FILE}" charset="utf-8"></script>', 1)
                return
