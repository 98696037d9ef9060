"""The report notebooks read without jupytext (pipeline/reports/percent.py), against jupytext's reading."""

from __future__ import annotations

import json

import pytest
from helpers import read_notebook

from pipeline.core import paths
from pipeline.reports import percent
from pipeline.reports.render import REPORTS

HEADER = """# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

"""
PLAIN = '# %% [markdown]\n# # A title\n#\n# words\n\n# %% tags=["parameters"]\nmonth = None\n\n# %%\nx = f(\n    month)\n'


def test_the_lines_jupytext_changes_are_found_by_its_own_patterns():
    """percent.py's copy of jupytext's patterns, held to the jupytext installed (requirements.lock
    pins 1.19.6): a new jupytext that reads a line otherwise fails here, and the copy is brought up to it."""
    import hashlib
    import inspect

    import jupytext
    from jupytext import magics

    assert jupytext.__version__ == "1.19.6"
    assert percent.JUPYTEXT_PATTERNS == {
        "_MAGIC_RE": magics._MAGIC_RE["python"].pattern, "_MAGIC_FORCE_ESC_RE": magics._MAGIC_FORCE_ESC_RE["python"].pattern,
        "_PYTHON_HELP_OR_BASH_CMD": magics._PYTHON_HELP_OR_BASH_CMD.pattern,
        "_PYTHON_MAGIC_ASSIGN": magics._PYTHON_MAGIC_ASSIGN.pattern, "_IPYTHON_MAGIC_HELP": magics._IPYTHON_MAGIC_HELP.pattern,
        "_PYTHON_MAGIC_CMD": magics._PYTHON_MAGIC_CMD.pattern, "_ESCAPED_CODE_START": magics._ESCAPED_CODE_START[".py"].pattern}
    used = {f.__name__: hashlib.sha256(inspect.getsource(f).encode()).hexdigest()[:16]
            for f in (magics.is_magic, magics.uncomment_magic, magics.unescape_code_start)}
    assert used == {"is_magic": "39193c41920f5f0f", "uncomment_magic": "1de6f53b445d877a",
                    "unescape_code_start": "198db57567b5ac1e"}


def _without_ids(nb) -> dict:
    said = json.loads(json.dumps(nb))
    for cell in said["cells"]:
        assert len(cell.pop("id")) == 8
    return said


def _is_plain(text: str) -> bool:
    try:
        percent._parse(text)
    except percent._Other:
        return False
    return True


@pytest.mark.parametrize("name", [name for name, _ in REPORTS])
def test_each_page_notebook_is_read_here_as_jupytext_reads_it(name):
    path = paths.NOTEBOOK_DIR / f"{name}.py"
    assert _is_plain(path.read_text(encoding="utf-8")), "the notebook left the plain shape: jupytext would read it"
    assert _without_ids(percent.read(path)) == _without_ids(read_notebook(path))


@pytest.mark.parametrize("text, plain", [
    (HEADER + PLAIN, True),
    (PLAIN, False),                                                              # no header
    (HEADER + PLAIN.replace("\n\n# %%\n", "\n\n\n# %%\n"), False),                 # two blank lines between cells
    (HEADER + PLAIN.replace("month = None\n\n", "month = None\n"), False),         # none
    (HEADER + PLAIN + "\n", False),                                              # a blank line at the end
    (HEADER + PLAIN + "\n# %%\ndef f(m):\n    return m\n", False),               # a function (two lines around)
    (HEADER + PLAIN + "\n# %%\n# %time f(1)\n", False),                         # a magic jupytext uncomments
    (HEADER + PLAIN + "\n# %%\n# !ls\n", False),
    (HEADER + PLAIN + "\n# %% [raw]\nraw\n", False),                             # another kind of cell
    (HEADER + PLAIN + "\n# %% A title\nx = 1\n", False),
    (HEADER + PLAIN + "\n# %% [markdown]\n# one\n\n# two\n", False),             # a markdown line uncommented
    (HEADER + "x = 0\n\n" + PLAIN, False),                                       # code before the first cell
    (HEADER + PLAIN + "\n# %%\n\n# %%\nx = 2\n", True),                           # an empty cell
    (HEADER + PLAIN + '\n# %% tags=["a", "b"]\n# only a comment\n', True),
    ((HEADER + PLAIN).replace("\n", "\r\n"), False),
    (HEADER + PLAIN + '\n# %%\nq = """\n\n# %%\nSELECT 1"""\n', False),                # a marker inside a string
    (HEADER + PLAIN + '\n# %%\nq = """SELECT 1"""\n', True),
    (HEADER.replace("# ---\n\n", "#---\n\n") + PLAIN, False),                   # a header not closed
    # lines jupytext changes: commands, help, magics assigned, escaped markers, and their plain twins
    (HEADER + PLAIN + "\n# %%\n# copy the frame: pandas shares its data\nf = g.copy()\n", False),
    (HEADER + PLAIN + "\n# %%\n# a copy of the frame: pandas shares its data\nf = g.copy()\n", True),
    (HEADER + PLAIN + "\n# %%\n# sealed?\nx = 1\n", False),
    (HEADER + PLAIN + "\n# %%\n# is it sealed? ask\nx = 1\n", True),
    (HEADER + PLAIN + "\n# %%\n# files = !ls\nx = 1\n", False),
    (HEADER + PLAIN + "\n# %%\n# # +\nx = 1\n", False),
    (HEADER + PLAIN + "\n# %%\nx = 1 \\\n# cat\n", False),
    # a marker inside a string, however the quotes before and after it are counted
    (HEADER + PLAIN + "\n# %%\na = '\"\"\"'\nq = \"\"\"\n\n# %%\nSELECT 1\"\"\"\nb = '\"\"\"'\n", False),
    # blank lines and line ends jupytext counts its own way
    (HEADER + "\n" + PLAIN, False),
    (HEADER + PLAIN + "\n# %%\n\f\nx = 1\n", False),
    (HEADER + PLAIN + "\n# %%\nx = 1\n   \n\n# %%\ny = 2\n", False),
    # headers jupytext fills in or reads otherwise
    (HEADER.replace("#   jupytext:\n#     text_representation:\n#       extension: .py\n#       format_name: percent\n"
                    "#       format_version: '1.3'\n#       jupytext_version: 1.19.6\n", "") + PLAIN, False),
    (HEADER.replace("#   kernelspec:", "#   language_info:\n#     name: python\n#   kernelspec:") + PLAIN, False),
    (HEADER.replace("format_name: percent", "format_name: light") + PLAIN, False),
])
def test_a_file_is_read_as_jupytext_reads_it_here_or_by_jupytext(tmp_path, text, plain):
    path = tmp_path / "page.py"
    path.write_bytes(text.encode("utf-8"))
    assert _is_plain(text) is plain
    assert _without_ids(percent.read(path)) == _without_ids(read_notebook(path))
