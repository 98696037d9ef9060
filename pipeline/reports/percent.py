"""A report notebook read from its jupytext percent file, without importing jupytext.

The pages' notebooks (notebooks/*.py) are jupytext "percent" files, which analysts open in
JupyterLab. jupytext reads them well, but importing it (with markdown-it and its own pieces)
costs about a third of a CPU second, paid by every review for four files in the plain shape
below. So `read` parses that shape itself, and hands any file outside it to jupytext:

- a header between `# ---` lines (YAML, commented) holding `jupyter:` with the `jupytext:` text
  representation of a `.py` percent file, and optionally a `kernelspec:`, then one blank line;
- cells, each begun by `# %%`, `# %% [markdown]`, or either with `tags=[...]` (a JSON list);
- a markdown cell's lines each commented (`# text`, or `#` alone for an empty line);
- a code cell that is Python as it stands: it parses, holds no line jupytext would change (a
  commented magic, shell command or help such as `# %time`, `# !ls`, `# cd x`, `# copy it`,
  `# df?`, or an escaped marker such as `# # +`; jupytext's own rules, copied below and checked
  against jupytext's by a test), and no function or class at its top level (jupytext wants two
  blank lines around one);
- one blank line between cells, none at a cell's end, and nothing but `\n` to end a line.

jupytext reads any other file. tests/reports/test_percent.py checks that every notebook, and files
at each of those edges, are read as jupytext reads them. Cells get random ids, as jupytext gives them.
"""

from __future__ import annotations

import ast
import json
import re
import secrets
from pathlib import Path

_MARKER = re.compile(r"# %%( \[markdown\])?(?: tags=(\[[^\]]*\]))?")
_BLOCK = ("def ", "async ", "class ")
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")   # str.splitlines() breaks there too
_REPRESENTATION = {"extension": ".py", "format_name": "percent"}
_JUPYTEXT_KEYS = {"text_representation"}
_REPRESENTATION_KEYS = {"extension", "format_name", "format_version", "jupytext_version"}

# The lines of a code cell that jupytext (1.19) changes as it reads a Python percent file: its
# jupytext.magics patterns for Python, as is_magic(line, "python", True, explicitly_code=True) and
# is_escaped_code_start(line, ".py") use them (tests/reports/test_percent.py holds them equal).
JUPYTEXT_PATTERNS = {
    "_MAGIC_RE": r"^\s*(\# |\#)*(%|%%|%%%)[a-zA-Z]",
    "_MAGIC_FORCE_ESC_RE": r"^\s*(\# |\#)*(%|%%|%%%)[a-zA-Z](.*)\#\s*escape",
    "_PYTHON_HELP_OR_BASH_CMD": r"^\s*(?:(?:# |#)+\s*)?(\?|!)\s*[A-Za-z\.\~\$\\\/\{\}]",
    "_PYTHON_MAGIC_ASSIGN": r"^(# |#)*\s*([a-zA-Z_][a-zA-Z_$0-9]*)\s*=\s*(%|%%|%%%|!)[a-zA-Z](.*)",
    "_IPYTHON_MAGIC_HELP": r"^\s*(# )*[^\s]*\?\s*$",
    "_PYTHON_MAGIC_CMD": r"^(# |#)*(cat|cd|cp|mv|rm|rmdir|mkdir|copy|ddir|echo|ls|ldir|mkdir|ren|rmdir)($|\s$|\s[^=,])",
    "_ESCAPED_CODE_START": r"^(\# |\#)*(\#|\# )\+",
}
_CHANGED = [re.compile(p) for p in JUPYTEXT_PATTERNS.values()]


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
    if _OTHER_BREAKS.search(text):
        raise _Other
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    metadata, at = _header(lines)
    if at + 1 >= len(lines) or lines[at] != "" or not lines[at + 1].startswith("# %%"):
        raise _Other                      # one blank line after the header, then the first cell
    starts = [i for i in range(at, len(lines)) if lines[i].startswith(("# %%", "#%%"))]
    cells = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = lines[start + 1:end]
        if n + 1 < len(starts):           # one blank line before the next cell, and only one
            if not body or body[-1] != "":
                raise _Other
            body = body[:-1]
        if body and not body[-1].strip():
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
    jupyter = said.get("jupyter") if isinstance(said, dict) and set(said) == {"jupyter"} else None
    if not isinstance(jupyter, dict) or not set(jupyter) <= {"jupytext", "kernelspec"}:
        raise _Other
    jupytext = jupyter.get("jupytext")
    shown = jupytext.get("text_representation") if isinstance(jupytext, dict) else None
    if set(jupytext or ()) != _JUPYTEXT_KEYS or not isinstance(shown, dict) or \
            not set(shown) <= _REPRESENTATION_KEYS or {k: shown.get(k) for k in _REPRESENTATION} != _REPRESENTATION:
        raise _Other
    return jupyter, close + 1


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
    if any(line.startswith(_BLOCK) or any(p.match(line) for p in _CHANGED) for line in body):
        raise _Other
    text = "\n".join(body)
    try:     # Python as it stands: a `# %%` line inside a string would have cut it short
        compile(text, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        raise _Other from None
    return {"id": cell_id, "cell_type": "code", "metadata": metadata, "execution_count": None,
            "source": text, "outputs": []}
