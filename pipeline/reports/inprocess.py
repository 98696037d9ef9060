"""The report notebooks run in this process, not in a Jupyter kernel.

The pages of a month are four notebooks. In a kernel each of them starts a Python, imports
pandas, plotly and duckdb again, and talks to this process over ZeroMQ: about half of a review's
CPU time (docs/benchmarks.md). Here the cells run, one after another, in one IPython
InteractiveShell of this process, so the imports are paid once per command (or once per desk).

What a cell shows is recorded as a kernel would send it:
- display() and a figure's renderer (plotly's NotebookRenderer, charts.setup()) publish through
  the shell's display publisher: each call a display_data output, in order;
- the value of a cell's last expression goes through the shell's display hook: an execute_result;
- what the cell prints is a stream output (stdout or stderr), merged as nbclient merges them;
- an exception is an error output, and the cells after it are not run (nbclient's default).
The formatters are IPython's own (every mime type, as ipykernel's shell has), so a cell's
outputs hold what a kernel's would; tests/reports/test_inprocess.py compares the pages.

`execute` also does what papermill does around a kernel's run, without importing papermill (with
its HTTP clients, kernel machinery and CLI, about a fifth of a CPU second): the parameters are
written in a cell of their own after the cell tagged "parameters" (tagged "injected-parameters",
replacing one injected before), a parameter that cell does not name is warned of as papermill warns,
and a cell that raised stops the page with CellFailed, where papermill raises
PapermillExecutionError (but for sys.exit() or sys.exit(0), which end the page there, as in
papermill). A kernel's run (render.py, engine "kernel") is still papermill's.

Each notebook runs in a namespace of its own, cleared after it, and any DuckDB connection it
left open is closed: a command that renders and then writes (pound close, the desk) finds the
database as it would after a kernel had exited. One notebook runs at a time (LOCK): the shell,
its display publisher and sys.stdout are the process's own.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import logging
import secrets
import sys
import threading

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from nbformat import from_dict

LOCK = threading.RLock()
LOG = logging.getLogger(__name__)


class CellFailed(Exception):
    """A cell of a page raised: its exception's name and words, and the cell's execution count."""

    def __init__(self, ename: str, evalue: str, exec_count: int | None):
        super().__init__(f"cell {exec_count}: {ename}: {evalue}")
        self.ename, self.evalue, self.exec_count = ename, evalue, exec_count


def new_output(output_type: str, **fields):
    """An output as nbformat.v4.new_output makes it, without validating each one against the schema
    as it is made (a third of a second for a review's 200 outputs): the executed notebook is
    validated whole when it is exported (nbconvert's validate preprocessor), as a kernel's is."""
    return from_dict({"output_type": output_type, **fields})


class _Outputs:
    """The outputs of the cell now running (a list of nbformat outputs), for the publisher,
    the display hook, the streams and the traceback to append to."""

    def __init__(self):
        self.cell: list | None = None

    def add(self, output) -> None:
        if self.cell is not None:
            self.cell.append(output)

    def stream(self, name: str, text: str) -> None:
        if self.cell is None or not text:
            return
        last = self.cell[-1] if self.cell else None
        if last is not None and last.get("output_type") == "stream" and last.get("name") == name:
            last["text"] += text
        else:
            self.cell.append(new_output("stream", name=name, text=text))


OUTPUTS = _Outputs()


class _Publisher(DisplayPublisher):
    """display() and friends: a display_data output each."""

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        OUTPUTS.add(new_output("display_data", data=dict(data), metadata=dict(metadata or {})))

    def clear_output(self, wait=False):
        if OUTPUTS.cell is not None:
            OUTPUTS.cell.clear()


class _Hook(DisplayHook):
    """The value of a cell's last expression: an execute_result, as ipykernel's display hook sends."""

    def start_displayhook(self):
        self._data, self._metadata = {}, {}

    def write_output_prompt(self):
        pass

    def write_format_data(self, format_dict, md_dict=None):
        self._data, self._metadata = dict(format_dict), dict(md_dict or {})

    def finish_displayhook(self):
        if not self._data:       # an object that displayed itself (_ipython_display_): nothing more, as in ipykernel
            return
        OUTPUTS.add(new_output("execute_result", data=self._data, metadata=self._metadata,
                               execution_count=self.shell.execution_count))


class _Stream:
    """sys.stdout or sys.stderr while a notebook runs: what the thread running it writes goes to
    the cell's outputs; what any other thread writes (the desk's server, say) goes where it went."""

    def __init__(self, name: str, original, owner: int):
        self.name, self.original, self.owner = name, original, owner

    def write(self, text: str) -> int:
        if threading.get_ident() == self.owner:
            OUTPUTS.stream(self.name, text)
        else:
            self.original.write(text)
        return len(text)

    def flush(self) -> None:
        if threading.get_ident() != self.owner:
            self.original.flush()

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name):
        return getattr(self.original, name)


class PageShell(InteractiveShell):
    """An InteractiveShell whose displays and tracebacks become the cell's outputs."""

    def init_display_pub(self):
        self.display_pub = _Publisher(parent=self, shell=self)
        self.configurables.append(self.display_pub)

    def init_displayhook(self):
        from IPython.core.display_trap import DisplayTrap

        self.displayhook = _Hook(parent=self, shell=self, cache_size=0)
        self.configurables.append(self.displayhook)
        self.display_trap = DisplayTrap(hook=self.displayhook)

    def _showtraceback(self, etype, evalue, stb):
        OUTPUTS.add(new_output("error", ename=getattr(etype, "__name__", str(etype)), evalue=str(evalue),
                               traceback=list(stb)))

    def enable_gui(self, gui=None):
        pass


def shell() -> PageShell:
    """The process's one shell (made the first time a page is rendered), keeping no history file."""
    from traitlets.config import Config

    return PageShell.instance(config=Config({"HistoryManager": {"enabled": False}}), colors="nocolor",
                              autoindent=False)


@contextlib.contextmanager
def _streams():
    owner = threading.get_ident()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stream("stdout", saved[0], owner), _Stream("stderr", saved[1], owner)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _close_connections(namespace: dict) -> None:
    """Close the DuckDB connections a notebook left in its namespace (a kernel's would close as it exits)."""
    duckdb = sys.modules.get("duckdb")
    if duckdb is None:
        return
    for value in list(namespace.values()):
        if isinstance(value, duckdb.DuckDBPyConnection):
            with contextlib.suppress(Exception):
                value.close()


def execute(nb, parameters: dict):
    """Run the notebook `nb` in this process with `parameters` written into it (module docstring):
    `nb` itself, its cells' outputs filled in. Raises CellFailed for a cell that raised."""
    if parameters:
        parameterize(nb, parameters)
    run_cells(nb)
    for cell in nb.cells:
        for output in cell.get("outputs", ()):
            if output.get("output_type") != "error":
                continue
            if output.get("ename") == "SystemExit" and output.get("evalue") in ("", "0"):
                continue             # sys.exit() or sys.exit(0): the page ends there, as papermill lets it
            raise CellFailed(output.get("ename", ""), output.get("evalue", ""), cell.get("execution_count"))
    return nb


def _tagged(nb, tag: str) -> int | None:
    return next((i for i, cell in enumerate(nb.cells) if tag in cell.get("metadata", {}).get("tags", ())), None)


def named_in(source: str) -> set[str]:
    """The names a parameters cell assigns at its top level (papermill's own inference reads the same)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def parameterize(nb, parameters: dict) -> None:
    """The parameters written as a cell tagged "injected-parameters": in place of one injected before,
    else after the cell tagged "parameters", else first (papermill's parameterize_notebook)."""
    given = _tagged(nb, "parameters")
    named = named_in(nb.cells[given].source) if given is not None else set()
    for name in parameters:
        if name not in named:
            LOG.warning("Passed unknown parameter: %s", name)
    source = "# Parameters\n" + "".join(f"{name} = {value!r}\n" for name, value in parameters.items())
    cell = from_dict({"id": secrets.token_hex(4), "cell_type": "code", "execution_count": None, "source": source,
                      "metadata": {"tags": ["injected-parameters"]}, "outputs": []})
    injected = _tagged(nb, "injected-parameters")
    if injected is not None:
        nb.cells[injected] = cell
    else:
        if given is None:
            LOG.warning("Input notebook does not contain a cell with tag 'parameters'")
        nb.cells.insert(0 if given is None else given + 1, cell)


def run_cells(nb) -> None:
    """Run the code cells of `nb` in order in the process's shell, each cell's outputs replaced by
    what it shows; stop at the first cell that raises (its error is its last output)."""
    with LOCK:
        sh = shell()
        sh.reset(new_session=False)
        # what lived before the notebook (the imported modules: pandas, plotly...) is set aside from the
        # collection after it, which then walks only what the notebook made (gc.freeze): a whole
        # collection walked every module's objects again, about half a CPU second for each page
        gc.freeze()
        sh.execution_count = 1
        try:
            with _streams():
                for cell in nb.cells:
                    if cell.get("cell_type") != "code":
                        continue
                    cell.outputs = []
                    OUTPUTS.cell = cell.outputs
                    cell.execution_count = sh.execution_count
                    try:
                        result = sh.run_cell(cell.source, store_history=True)
                    finally:
                        OUTPUTS.cell = None
                    if result.error_before_exec is not None or result.error_in_exec is not None:
                        break
        finally:
            _close_connections(sh.user_ns)
            sh.reset(new_session=False)
            gc.collect()
            gc.unfreeze()
