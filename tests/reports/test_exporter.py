"""The reports go through nbconvert and papermill: the page PageExporter writes is the page
nbconvert's own HTMLExporter writes with the same settings (once BeautifulSoup has normalised
both), its one copied method is checked against the pinned nbconvert, and a parameter the notebook
does not name is warned of, as papermill does."""

from __future__ import annotations

import copy
import hashlib
import inspect
import logging

import nbformat
import pytest
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter

from pipeline.reports import render
from pipeline.reports.exporter import NBCONVERT_VERSION, TEMPLATE_DIR, PageExporter, _needs_pass


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


# the source of HTMLExporter.from_notebook_node whose lines PageExporter.from_notebook_node copies
COPIED_FROM = "3dccafff45cc4e749766089c7de2f5385ac071e03f4f5a15bfb3b025f54893b9"


def test_the_lines_copied_are_nbconvert_s_of_the_pinned_version():
    import nbconvert

    assert nbconvert.__version__ == NBCONVERT_VERSION, (
        f"nbconvert is {nbconvert.__version__}: read HTMLExporter.from_notebook_node again against "
        "PageExporter.from_notebook_node (pipeline/reports/exporter.py), then pin the new version")
    source = inspect.getsource(HTMLExporter.from_notebook_node)
    assert hashlib.sha256(source.encode()).hexdigest() == COPIED_FROM


def test_the_exporter_overrides_only_the_export_of_a_notebook():
    own = {n for n, v in vars(PageExporter).items() if callable(v) and not n.startswith("_")}
    assert own == {"from_notebook_node"}


def test_the_report_pages_skip_a_pass_that_would_change_nothing(monkeypatch):
    import bs4

    parsed = []
    monkeypatch.setattr("nbconvert.exporters.html.BeautifulSoup",
                        lambda *a, **k: parsed.append(1) or bs4.BeautifulSoup(*a, **k))
    page, _ = PageExporter().from_notebook_node(_notebook())
    assert parsed == [] and not _needs_pass(page)


def test_a_page_with_an_image_without_alt_gets_nbconvert_s_pass():
    # the near miss: an <img> with no alt, which nbconvert's pass gives its words
    nb = _notebook()
    nb.cells.append(nbformat.v4.new_code_cell("img", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": '<img src="data:image/png;base64,AA==">'})]))
    ours, _ = PageExporter().from_notebook_node(copy.deepcopy(nb))
    assert 'alt="No description has been provided for this image"' in ours
    theirs, _ = HTMLExporter(template_name="pound", extra_template_basedirs=[str(TEMPLATE_DIR)], exclude_input=True,
                             exclude_input_prompt=True, exclude_output_prompt=True).from_notebook_node(nb)
    assert _normalised(ours) == _normalised(theirs)


@pytest.mark.parametrize("page, needs", [
    ('<div class="jp-Cell jp-Notebook-cell">', False), ('<style>.jp-Notebook div {}</style>', False),
    ('<body class="jp-Notebook">', True), ("<main class='x jp-Notebook y'>", True), ('<IMG src="a.png">', True),
    ('<p>an image, img, in words</p>', False), ('<div CLASS="jp-Notebook">', True), ('<div class="jp-notebook">', False),
    ("<div class='jp-Notebook-cell jp-Notebook'>", True), ('<div class="a\tjp-Notebook">', True),
    ('<div data-class="jp-Notebook">', False), ('<div class="jp-Notebookx">', False)])
def test_which_pages_need_the_pass(page, needs):
    assert _needs_pass(page) is needs


@pytest.mark.notebook
def test_an_unknown_parameter_is_warned_of_as_papermill_does_and_the_parameters_follow_their_cell(caplog):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("month = None", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("print(month)")]
    with caplog.at_level(logging.WARNING, logger="pipeline.reports.inprocess"):
        done = render._execute(nb, {"month": "2026-10", "mnth": "2026-11"})
    assert "Passed unknown parameter: mnth" in caplog.text
    assert "Passed unknown parameter: month" not in caplog.text
    assert [c.metadata.get("tags") for c in done.cells] == [["parameters"], ["injected-parameters"], None]
    assert done.cells[-1].outputs[0]["text"] == "2026-10\n"
    # run again, the injected cell is replaced, not added to
    assert [c.metadata.get("tags") for c in render._execute(done, {"month": "2026-11"}).cells] == \
        [["parameters"], ["injected-parameters"], None]
    assert done.cells[-1].outputs[0]["text"] == "2026-11\n"
