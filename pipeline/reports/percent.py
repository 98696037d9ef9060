"""A report notebook read from its jupytext percent file, without importing jupytext.

The pages' notebooks (notebooks/*.py) are jupytext "percent" files, which analysts open in
JupyterLab. jupytext reads them well, but importing it (with markdown-it and its own pieces)
costs about a third of a CPU second, paid by every review for four files in the plain shape
below. So `read` parses that shape itself, and hands any file outside it to jupytext:

- a header between `# ---` lines (YAML, commented), whose `jupyter:` mapping is the
  notebook's metadata;
- cells, each begun by `# %%`, `# %% [markdown]`, or either with `tags=[...]` (a JSON list);
- a markdown cell's lines each commented (`# text`, or `#` alone for an empty line);
- one blank line between cells, and none at a cell's end.

A code cell holding a commented magic or shell line (`# %time`, `# !ls`), which jupytext would
uncomment, a code cell with a function or class at its top level (jupytext wants two blank lines
around one), a code cell whose triple quotes do not pair up (a `# %%` line inside a string, which jupytext
leaves in it), any other `# %%` option, text before the first cell, or a header not in that form:
jupytext reads the file. tests/reports/test_percent.py checks that every notebook, and files at each of
those edges, are read as jupytext reads them. Cells get random ids, as jupytext gives them.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

_MARKER = re.compile(r"# %%( \[markdown\])?(?: tags=(\[[^\]]*\]))?")
_MAGIC = re.compile(r"\s*#\s*[%!?]")
_BLOCK = ("def ", "async ", "class ")     # jupytext would want two blank lines around such a cell


class _Other(Exception):
    """The file is not in the plain shape this reader knows: jupytext reads it."""


def read(path: Path):
    """The notebook in `path`, as jupytext.read gives it (module docstring)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        metadata, cells = _parse(text)
    except _Other:
        import jupytext

        return jupytext.read(path)
    from nbformat import from_dict

    return from_dict({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells})


def _parse(text: str) -> tuple[dict, list[dict]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    metadata, at = _header(lines)
    while at < len(lines) and lines[at] == "":
        at += 1
    starts = [i for i in range(at, len(lines)) if lines[i].startswith(("# %%", "#%%"))]
    if not starts or starts[0] != at:
        raise _Other
    cells = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = lines[start + 1:end]
        last = n + 1 == len(starts)
        if not last:                      # one blank line before the next cell, and only one
            if not body or body[-1] != "" or (len(body) > 1 and body[-2] == ""):
                raise _Other
            body = body[:-1]
        elif body and body[-1] == "":
            raise _Other
        cells.append(_cell(lines[start], body))
    return metadata, cells


def _header(lines: list[str]) -> tuple[dict, int]:
    if not lines or lines[0] != "# ---":        # jupytext fills in metadata of its own for a file without one
        raise _Other
    try:
        close = lines.index("# ---", 1)
    except ValueError:
        raise _Other from None
    inside = []
    for line in lines[1:close]:
        if line != "#" and not line.startswith("# "):
            raise _Other
        inside.append(line[2:])
    import yaml

    try:
        said = yaml.safe_load("\n".join(inside))
    except yaml.YAMLError:
        raise _Other from None
    if not isinstance(said, dict) or set(said) != {"jupyter"} or not isinstance(said["jupyter"], dict):
        raise _Other
    return said["jupyter"], close + 1


def _cell(marker: str, body: list[str]) -> dict:
    found = _MARKER.fullmatch(marker)
    if found is None:
        raise _Other
    metadata = {}
    if found.group(2):
        try:
            tags = json.loads(found.group(2))
        except ValueError:
            raise _Other from None
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise _Other
        metadata["tags"] = tags
    cell_id = secrets.token_hex(4)
    if found.group(1):
        if any(line != "#" and not line.startswith("# ") for line in body):
            raise _Other
        return {"id": cell_id, "cell_type": "markdown", "source": "\n".join(line[2:] for line in body),
                "metadata": metadata}
    if any(_MAGIC.match(line) or line.startswith(_BLOCK) for line in body):
        raise _Other
    text = "\n".join(body)
    if text.count('"""') % 2 or text.count("'''") % 2:      # a `# %%` line inside a string: jupytext keeps it there
        raise _Other
    return {"id": cell_id, "cell_type": "code", "metadata": metadata, "execution_count": None,
            "source": text, "outputs": []}
