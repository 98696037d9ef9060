"""Rendering the report notebooks into pages that open offline.

Each notebook in notebooks/ (a jupytext percent file) is read (pipeline/reports/percent.py), run
with the parameters db, month and district, and exported by nbconvert with the code hidden, through the template in
pipeline/reports/templates/pound, which loads nothing from the network (no require.js,
MathJax, mermaid or widget scripts). charts.setup() embeds plotly.js once in each page; the
pages of a month then share one copy of it instead (PLOTLY_FILE, written beside them: about
4.8 MB, against a page's 0.1-1 MB), unless they are rendered self-contained, to be sent
alone. As a last guard, any <script src=...> or stylesheet <link> that points off the
machine is removed from the page (reports/assets.py).

The notebooks run in this process (engine "inprocess": pipeline/reports/inprocess.py, one after
another in one IPython shell, pandas, plotly and duckdb imported once, neither jupytext nor
papermill), or each by papermill in a `python3` Jupyter kernel ("kernel", read by jupytext, as
JupyterLab runs them; the tests compare the two).
"""

from __future__ import annotations

import re
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipeline.core import paths
from pipeline.core.digest import file_sha256
from pipeline.core.errors import PoundError
from pipeline.core.months import month_bounds
from pipeline.core.whole import write_whole
from pipeline.load.connection import threads_for_tables
from pipeline.read.database import as_of, check_district, connect
from pipeline.reports import review
from pipeline.reports.assets import PLOTLY_FILE, plotly_beside, share_plotly, strip_remote

NOTEBOOK_DIR = paths.NOTEBOOK_DIR
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"

# (file stem in notebooks/, title of the page)
REPORTS: tuple[tuple[str, str], ...] = (
    ("monthly_review", "Monthly accounts review"),
    ("reconciliation", "Local fund reconciliation"),
    ("trends", "Impoundment trends"),
    ("explore", "Exploring the pound accounts"),
)


def notebook_parameters(name: str, db: Path, month: str, district: str | None) -> dict:
    """What a notebook's parameters cell is given: the explore notebook looks at every month up
    to the report's (from_month, to_month); the others at the report's month."""
    if name == "explore":
        return {"db": str(db), "district": district, "from_month": None, "to_month": month}
    return {"db": str(db), "month": month, "district": district}


_EXPORTERS = threading.local()


def _exporter():
    """The thread's one PageExporter: a new one would compile nbconvert's lab templates again
    (about a tenth of a CPU second a page). One a thread, since an export sets its filters."""
    from pipeline.reports.exporter import PageExporter

    if not hasattr(_EXPORTERS, "one"):
        _EXPORTERS.one = PageExporter()
    return _EXPORTERS.one


def notebook_html(nb, title: str) -> str:
    """An executed notebook as a page: code hidden, error-free streams only, nothing remote."""
    nb.metadata["title"] = title
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell["outputs"] = [o for o in cell.get("outputs", [])
                               if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
    body, _ = _exporter().from_notebook_node(nb)
    return strip_remote(body)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "district"


def report_suffix(district: str | None) -> str:
    """What a report's file name carries after its month: the district, when there is one."""
    return f"_{_slug(district)}" if district else ""


def report_paths(out: Path, month: str, district: str | None, local_authority: str | None = None) -> list[Path]:
    """The reports' files; the reconciliation of one local authority carries its id too, so that
    the pages of two authorities written into one folder do not replace each other."""
    own = {"reconciliation": f"_{_slug(local_authority)}"} if local_authority else {}
    return [Path(out) / f"{name}_{month}{report_suffix(district)}{own.get(name, '')}.html" for name, _ in REPORTS]


def _kernel_config(sockets: Path):
    """The kernel talks to this process over Unix sockets in a folder of its own. Over TCP,
    jupyter_client picks free ports by opening and closing them before the kernel binds them,
    so a kernel started at the same moment by another process (two renders, two test workers)
    could take one first, and this kernel then died with 'Address already in use'."""
    from traitlets.config import Config

    return Config({"KernelManager": {"transport": "ipc", "ip": str(sockets / "kernel")}})


ENGINES = ("inprocess", "kernel")


def _execute(nb, parameters: dict, engine: str = "inprocess"):
    """The notebook run with `parameters`, in this process (`engine` "inprocess": inprocess.execute,
    without papermill), or by papermill on the `python3` kernel ("kernel"), writing the executed
    notebook nowhere. Either warns of a parameter the notebook's parameters cell does not name, and
    raises CellFailed for a cell that raised.
    The kernel starts in the project root (nbclient's resources path: papermill's cwd= would
    chdir this process, which renders the pages side by side in threads), so that it imports
    this very package. Its own log is noise here (the interrupt jupyter_client sends at
    shutdown): an error in a cell still comes back as PapermillExecutionError."""
    from pipeline.reports.inprocess import CellFailed, execute

    if engine == "inprocess":
        return execute(nb, parameters)
    import papermill as pm
    from jupyter_client.kernelspec import NoSuchKernel

    try:
        with tempfile.TemporaryDirectory(prefix="pound-kernel-") as sockets:
            return pm.execute_notebook(
                nb, None, parameters, kernel_name="python3", progress_bar=False, log_output=False, start_timeout=60,
                resources={"metadata": {"path": str(paths.ROOT)}}, config=_kernel_config(Path(sockets)),
                extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
                shutdown_kernel="immediate")
    except pm.PapermillExecutionError as exc:
        raise CellFailed(exc.ename, exc.evalue, exc.exec_count) from None
    except NoSuchKernel:
        raise PoundError("the Jupyter kernel 'python3' is not installed in this environment; run 'make install'") from None


def _run_notebook(name: str, title: str, parameters: dict, engine: str = "inprocess"):
    """The notebook notebooks/NAME.py run with `parameters`: read here (percent.read) when it runs in
    this process, by jupytext, as JupyterLab reads it, when it runs in a kernel."""
    from pipeline.reports.inprocess import CellFailed

    source = NOTEBOOK_DIR / f"{name}.py"
    if not source.exists():
        raise PoundError(f"the notebook {source} is missing; the reports need the notebooks/ folder of the project")
    if engine == "inprocess":
        from pipeline.reports.percent import read
    else:
        from jupytext import read
    nb = read(source)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    try:
        return _execute(nb, parameters, engine)
    except CellFailed as exc:
        if exc.ename == "PoundError":
            raise PoundError(exc.evalue) from None
        raise RuntimeError(f"the {title} report failed at cell {exc.exec_count}: {exc.ename}: {exc.evalue}") from None


class Pages(list):
    """The paths of the reports written, in order, with the notes said of them (`notes`) and the
    PDFs printed of them, if any (`pdfs`)."""

    def __init__(self, paths=(), notes=(), pdfs=(), hashes=None):
        super().__init__(paths)
        self.notes: list[str] = list(notes)
        self.pdfs: list[Path] = list(pdfs)
        self.hashes: dict[str, str] = dict(hashes or {})      # each page's sha256 as written (PAGES_RECORD)


def render_reports(db: Path, month: str, district: str | None, out: Path, local_authority: str | None = None,
                   period: tuple | None = None, sealing: str | None = None, self_contained: bool = False,
                   sealed_id: str | None = None, engine: str = "inprocess", kept: Path | None = None) -> Pages:
    """Render the reports of a month into `out` (REPORTS); returns their HTML paths (Pages, with
    the notes said of them, for the caller to show: nothing here prints). `sealing`, `sealed_id`:
    for the copies `pound close` seals, what the monthly review says of the close being made, and
    the close's figures id, which its page 1 prints.
    The pages share one plotly.js written beside them (PLOTLY_FILE, not in the paths returned),
    or with `self_contained` each holds its own, to be sent alone. `engine`: where the notebooks
    run (ENGINES; in this process, one after another, unless "kernel"). `kept`: a folder of pages
    rendered before (the month's review), whose pages of this very build and scope are copied
    rather than rendered again (kept_pages); the monthly review a close seals is always rendered.
    Pages rendered with no `sealing` are recorded in `out` (PAGES_RECORD) for a later close to find.

    The month must be written YYYY-MM; the database must have been built. A month with
    nothing in it still renders, each report saying so (and a note says it).
    """
    db = Path(db).resolve()
    # held open while the pages render: each notebook's own connection to the file is then DuckDB's
    # database already open in this process (its instance cache), not the file opened again, about
    # a tenth of a second a page
    held = connect(db)
    try:
        # and on one thread for a district's database, as its build ran (connection.threads_for): the
        # pages ask about a hundred small questions, each of which two threads answered for more
        # CPU time and no sooner (docs/benchmarks.md); a state's database keeps DuckDB's count
        threads_for_tables(held)
        return _render(held, db, month, district, out, local_authority, period, sealing, self_contained, sealed_id,
                       engine, kept)
    finally:
        held.close()


def _render(con, db: Path, month: str, district: str | None, out: Path, local_authority: str | None,
            period: tuple | None, sealing: str | None, self_contained: bool, sealed_id: str | None,
            engine: str, kept: Path | None) -> Pages:
    from pipeline.build import record

    first, _ = month_bounds(month)
    district = check_district(con, district)
    active = review.has_activity(con, month, district)
    drawn_up_to = as_of(con)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    notes = []
    if drawn_up_to is not None and first > drawn_up_to:
        notes.append(f"note: the accounts are drawn up to {drawn_up_to:%d-%m-%Y}, before {month} begins; the reports "
                     "show nothing of it (pound build --as-of a later day draws them further)")
    elif not active:
        where = f" in district {district}" if district else ""
        notes.append(f"note: nothing was impounded, paid or found in {month}{where}; the reports say so")
    scoped: dict = {}
    if local_authority or period:
        # the reconciliation's balances (section 2b) for this local authority and period
        start, end = period or (None, None)
        scoped = {"local_authority": local_authority, "period_from": start.isoformat() if start else None,
                  "period_to": end.isoformat() if end else None}
    paths = report_paths(out, month, district, local_authority)
    def one(report, path):
        name, title = report
        params = notebook_parameters(name, db, month, district)
        if name == "reconciliation":
            params.update(scoped)
        if name == "monthly_review" and sealing:
            params["sealing"] = sealing
            params["sealed_id"] = sealed_id
        nb = _run_notebook(name, title, params, engine)
        if not self_contained:
            share_plotly(nb, out)
        # the title heads every printed sheet: the report, its month and its scope
        page_title = (f"{title}, {month}, " + (f"district {district}" if district else "all districts")
                      + (f", local authority {local_authority}" if local_authority and name == "reconciliation" else ""))
        page = notebook_html(nb, page_title)
        path.write_text(page, encoding="utf-8")

    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: one of {ENGINES}")
    scope = {"month": month, "district": district, "local_authority": local_authority,
             "period": [d.isoformat() if d else None for d in period] if period else None,
             "self_contained": self_contained}
    built = record.last(con)
    copied = kept_pages(kept, built, scope, printed=_printed_pages(con, built)) if kept is not None else {}
    if sealing:
        copied.pop("monthly_review", None)
    todo = []
    for rep, path in zip(REPORTS, paths, strict=True):
        if rep[0] in copied:
            _copy_page(copied[rep[0]], path, self_contained)
        else:
            todo.append((rep, path))
    if engine == "inprocess":
        for rep, path in todo:
            one(rep, path)
    else:
        # Kernels run side by side: most of a report's time is its kernel starting
        # and importing pandas and plotly, which overlaps well even on two cores.
        with ThreadPoolExecutor(max_workers=len(REPORTS)) as pool:
            for f in [pool.submit(one, rep, path) for rep, path in todo]:
                f.result()
    hashes = _record_pages(out, built, scope, paths) if not sealing and built is not None else {}
    return Pages(paths, notes, hashes=hashes)


PAGES_RECORD = ".pages.json"     # beside a review's pages: the build and scope they were rendered from, and their hashes


def _identity(built) -> dict:
    return {"build_id": built.build_id, "built_at": built.built_at.isoformat()}


def _record_pages(out: Path, built, scope: dict, paths: list[Path]) -> dict[str, str]:
    import json

    pages = {p.name: file_sha256(p) for p in paths}
    write_whole(Path(out) / PAGES_RECORD, json.dumps({**_identity(built), **scope, "pages": pages}, indent=1) + "\n")
    return pages


def _printed_pages(con, built) -> set[tuple[str, str]]:
    """Each page (name, sha256) a review printed from the build `built` recorded in the database
    (printed_reviews.pages, close/printed.py remember); none from a database that records none."""
    import json

    import duckdb

    if built is None:
        return set()
    try:
        rows = con.execute("SELECT pages FROM printed_reviews WHERE build_id = ? AND pages IS NOT NULL",
                           [built.build_id]).fetchall()
    except duckdb.Error:                 # a database made before the pages were recorded
        return set()
    out = set()
    for (text,) in rows:
        try:
            out |= {(str(n), str(h)) for n, h in json.loads(text).items()}
        except (ValueError, AttributeError):
            continue
    return out


def kept_pages(folder: Path, built, scope: dict, printed: set[tuple[str, str]] | None = None) -> dict[str, Path]:
    """The pages of `folder` rendered from the build `built` for the same scope, by report name,
    each still as it was written (its hash as recorded): what a close may copy rather than render
    again. Nothing when the folder holds no record, or one of another build, database or scope.
    `printed`: the pages the database says a review printed from that build (_printed_pages); a
    page whose hash is not among them is not kept, whatever the folder's record says (the record
    is a file beside the pages, which whoever could change a page could change too)."""
    import json

    try:
        said = json.loads((Path(folder) / PAGES_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if built is None or not isinstance(said, dict) or {k: said.get(k) for k in (*_identity(built), *scope)} != \
            {**_identity(built), **scope}:
        return {}
    found = {}
    for (name, _), path in zip(REPORTS, report_paths(Path(folder), scope["month"], scope["district"],
                                                     scope["local_authority"]), strict=True):
        want = (said.get("pages") or {}).get(path.name)
        try:
            if want and file_sha256(path) == want and (printed is None or (path.name, want) in printed):
                found[name] = path
        except OSError:
            continue
    return found


def _copy_page(source: Path, target: Path, self_contained: bool) -> None:
    """A kept page copied in, with the plotly.js it names written beside it from this installation."""
    page = source.read_text(encoding="utf-8")
    if not self_contained and f'src="{PLOTLY_FILE}"' in page:
        plotly_beside(target.parent)
    write_whole(target, page)
