"""The pages rendered in this process (pipeline/reports/inprocess.py) against those of Jupyter kernels."""

from __future__ import annotations

import inspect
import re

import pytest
from helpers import SAMPLE_BUNDLE, SYNTH_MONTH

from pipeline.reports import render

_RANDOM = [re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),   # plotly's div of a figure
           re.compile(r'id="cell-id=[0-9a-f]+"')]                                         # jupytext's cell ids


def _fixed(page: str) -> str:
    """A page without the ids drawn at random each time a page is made, whichever the engine."""
    for pattern in _RANDOM:
        page = pattern.sub("RANDOM", page)
    return page


@pytest.mark.notebook
@pytest.mark.parametrize("where, month", [("october", "2026-10"), ("synthetic", SYNTH_MONTH)])
def test_the_pages_made_in_this_process_equal_the_kernels_figure_for_figure(request, shared, tmp_path, where, month):
    # ours: the session's pages (reports/conftest.py rendered), made in a test process by the in-process
    # engine, render_reports' own; theirs: the same month of the same database, rendered by kernels here
    pages = request.getfixturevalue(where)
    if where == "synthetic":                                  # the synthetic district's run
        db = request.getfixturevalue("synthetic_db")
    else:                                                     # the sample's October, of the session's run
        db = shared.run_folder(SAMPLE_BUNDLE, "2026-11-30") / "pound.duckdb"
    # the engine `rendered` drew them with: render_reports' default
    assert inspect.signature(render.render_reports).parameters["engine"].default == "inprocess"
    ours = [pages[name] for name, _ in render.REPORTS]
    theirs = render.render_reports(db, month, None, tmp_path / "kernel", engine="kernel")
    for (name, _), mine, kernels in zip(render.REPORTS, ours, theirs, strict=True):
        mine, kernels = mine.read_text(encoding="utf-8"), kernels.read_text(encoding="utf-8")
        assert mine.count('class="pound-chart"') == kernels.count('class="pound-chart"') > 0, name
        assert _fixed(mine) == _fixed(kernels), name


@pytest.mark.notebook
def test_a_failing_cell_stops_the_page_as_in_a_kernel(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("x = None", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("print('before'); 1 / 0"), nbformat.v4.new_code_cell("print('after')")]
    from pipeline.reports.inprocess import CellFailed

    with pytest.raises(CellFailed) as raised:
        render._execute(nb, {"x": 1})
    assert (raised.value.ename, raised.value.exec_count) == ("ZeroDivisionError", 3)
    assert nb.cells[2].outputs[0]["text"] == "before\n" and nb.cells[2].outputs[-1]["output_type"] == "error"
    assert nb.cells[3].outputs == [] and nb.cells[3].execution_count is None      # the cell after it never ran



@pytest.mark.filterwarnings("ignore:To exit")      # IPython's word to someone typing exit at its prompt
@pytest.mark.parametrize("exit_with, fails", [("sys.exit()", False), ("sys.exit(0)", False), ("sys.exit(2)", True),
                                              ("sys.exit('stopped')", True)])
def test_a_page_that_exits_cleanly_ends_there_as_papermill_lets_it(exit_with, fails):
    import nbformat

    from pipeline.reports.inprocess import CellFailed

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = None", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell(f"import sys; print('before'); {exit_with}"),
                nbformat.v4.new_code_cell("print('after')")]
    if fails:
        with pytest.raises(CellFailed) as raised:
            render._execute(nb, {"x": 1})
        assert raised.value.ename == "SystemExit"
    else:
        render._execute(nb, {"x": 1})
    assert nb.cells[2].outputs[0]["text"] == "before\n" and nb.cells[3].outputs == []


@pytest.mark.notebook
def test_pages_rendered_from_two_threads_take_turns_keep_other_threads_prints_out_and_leave_the_database_free(
        sample_db, tmp_path):
    """The desk renders in a worker thread while its server answers in others: two renders of
    October at once take turns, keep out what other threads print, leave the process's stdout as it
    was and the database free for writing, and the second numbers its charts from 1 again, as a
    kernel of its own would. (One test, two renders, for what two tests checked with four.)"""
    import shutil
    import sys
    import threading

    import duckdb

    # a copy of its own: the session's sample database may be open read-only elsewhere in this process
    sample_db = shutil.copy(sample_db, tmp_path / "pound.duckdb")
    stdout = sys.stdout
    done: dict = {}

    def render_into(i):
        try:
            done[i] = render.render_reports(sample_db, "2026-10", None, tmp_path / str(i))
        except Exception as exc:       # raised again below, in the test's thread
            done[i] = exc

    workers = [threading.Thread(target=render_into, args=(i,)) for i in range(2)]
    for w in workers:
        w.start()
    while any(w.is_alive() for w in workers):
        print("the server answers a request")
        workers[0].join(0.2)
    for w in workers:
        w.join()
    for i in range(2):
        assert isinstance(done[i], render.Pages), done[i]
        assert all("the server answers" not in p.read_text(encoding="utf-8") for p in done[i]), \
            "a page holds what another thread printed"
    assert _fixed(done[0][0].read_text(encoding="utf-8")) == _fixed(done[1][0].read_text(encoding="utf-8")), \
        "two renders of the same month differ"
    assert sys.stdout is stdout, "a render left the process's stdout changed"
    # a command that renders and then writes (pound close, the desk) opens the database for writing
    duckdb.connect(str(sample_db), read_only=False).close()
    # whichever rendered second numbers its charts from 1 again
    assert all('id="chart-1"' in done[i][0].read_text(encoding="utf-8") for i in range(2)), \
        "a second render in the process does not number its charts from 1"
