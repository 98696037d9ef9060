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
])
def test_a_file_is_read_as_jupytext_reads_it_here_or_by_jupytext(tmp_path, text, plain):
    path = tmp_path / "page.py"
    path.write_bytes(text.encode("utf-8"))
    assert _is_plain(text) is plain
    assert _without_ids(percent.read(path)) == _without_ids(read_notebook(path))
