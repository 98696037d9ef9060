"""The reports go through nbconvert and papermill by their public doors: the page PageExporter
writes is the page nbconvert's own HTMLExporter writes with the same settings (once BeautifulSoup
has normalised both), and a parameter the notebook does not name is warned of, as papermill does."""

from __future__ import annotations

import copy
import logging

import nbformat
import pytest
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter

from pipeline.reports import render
from pipeline.reports.exporter import TEMPLATE_DIR, PageExporter


def _notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["title"] = "Monthly accounts review, 2026-10, all districts"
    nb.cells = [nbformat.v4.new_markdown_cell("# A page\n\nSome *words*."),
                nbformat.v4.new_code_cell("x = 1", outputs=[nbformat.v4.new_output(
                    "display_data", data={"text/html": '<table class="pound-table"><tr><td>1</td></tr></table>'})]),
                nbformat.v4.new_code_cell("print('hidden code')", outputs=[nbformat.v4.new_output(
                    "stream", name="stdout", text="shown\n")])]
    return nb


def _normalised(page: str) -> str:
    return BeautifulSoup(page, "html.parser").prettify()


def test_the_page_is_nbconvert_s_own():
    nb = _notebook()
    ours, _ = PageExporter().from_notebook_node(copy.deepcopy(nb))
    theirs, _ = HTMLExporter(template_name="pound", extra_template_basedirs=[str(TEMPLATE_DIR)], exclude_input=True,
                             exclude_input_prompt=True, exclude_output_prompt=True).from_notebook_node(copy.deepcopy(nb))
    assert _normalised(ours) == _normalised(theirs)
    assert "hidden code" not in ours and "shown" in ours and 'class="pound-table"' in ours
    # its twin: nbconvert's page with the code shown differs, so the comparison can fail
    shown, _ = HTMLExporter(template_name="pound", extra_template_basedirs=[str(TEMPLATE_DIR)]).from_notebook_node(nb)
    assert _normalised(shown) != _normalised(ours)


def test_the_exporter_overrides_no_method_of_nbconvert():
    # only the defaults of documented traits: every step of the export is nbconvert's
    own = {n for n, v in vars(PageExporter).items() if callable(v) and not n.startswith("_")}
    assert own == set()


@pytest.mark.notebook
def test_an_unknown_parameter_is_warned_of_as_papermill_does(caplog):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("month = None", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("print(month)")]
    with caplog.at_level(logging.WARNING, logger="papermill"):
        done = render._execute(nb, {"month": "2026-10", "mnth": "2026-11"})
    assert "Passed unknown parameter: mnth" in caplog.text
    assert "Passed unknown parameter: month" not in caplog.text
    assert done.cells[-1].outputs[0]["text"] == "2026-10\n"
