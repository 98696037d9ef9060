"""The notebooks, and the pages they render (without a browser)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import read_notebook

from pipeline.core.errors import PoundError
from pipeline.reports import assets, render

ROOT = Path(__file__).resolve().parents[2]
# The report notebooks read figures through pipeline/reports only; explore.py, the analysts'
# starting point, shows its SQL on purpose (test_explore_queries_read_only_finished_tables).
NOTEBOOKS = [ROOT / "notebooks" / f"{name}.py" for name, _ in render.REPORTS if name != "explore"]
EXPLORE = ROOT / "notebooks" / "explore.py"
FINISHED = {"case_accounts", "fund_movements", "security_status", "owner_accounts", "findings", "reconciliation",
            "monthly_accounts", "impoundment_cohorts", "sale_prices", "deadlines_missed", "deadlines",
            "dm_deposit_position", "district_months", "corrections", "review_log"}
SQL_WORDS = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|ATTACH|COPY|PRAGMA|EXPORT)\b")


def test_bad_month_and_unknown_district_fail_before_any_kernel(sample_db, tmp_path):
    with pytest.raises(PoundError, match="not a month"):
        render.render_reports(sample_db, "2026-10-01", None, tmp_path / "o")
    with pytest.raises(PoundError, match="no pound is in district 'Mandya'; the database has 'Mysuru'"):
        render.render_reports(sample_db, "2026-10", "Mandya", tmp_path / "o")
    assert not (tmp_path / "o").exists()


def test_missing_database_writes_nothing(tmp_path):
    with pytest.raises(PoundError, match="does not exist"):
        render.render_reports(tmp_path / "nope.duckdb", "2026-10", None, tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.notebook
def test_a_pound_error_inside_a_notebook_reaches_the_user_as_one(tmp_path):
    with pytest.raises(PoundError, match="does not exist"):
        render._run_notebook("trends", "Impoundment trends",
                             {"db": str(tmp_path / "gone.duckdb"), "month": "2026-10", "district": None})


def test_a_report_that_fails_leaves_the_folder_as_it_was(sample_db, tmp_path, monkeypatch):
    from pipeline.steps.review import write_review

    out = tmp_path / "reports"
    out.mkdir()
    (out / "monthly_review_2026-10.html").write_text("the pages of an earlier run")

    def fails_after_one_page(db, month, district, folder, *rest, **options):
        (folder / "monthly_review_2026-10.html").write_text("half of a new set")
        raise PoundError("the Impoundment trends report failed at cell 4")

    monkeypatch.setattr(render, "render_reports", fails_after_one_page)
    with pytest.raises(PoundError, match="trends"):
        write_review(sample_db, "2026-10", None, out)
    assert [p.name for p in out.iterdir()] == ["monthly_review_2026-10.html"]
    assert (out / "monthly_review_2026-10.html").read_text() == "the pages of an earlier run"

    def writes_the_pages(db, month, district, folder, *rest, **options):
        for name in ("trends", "monthly_review"):
            (folder / f"{name}_2026-10.html").write_text("the new set")
        return render.Pages([folder / "trends_2026-10.html", folder / "monthly_review_2026-10.html"])

    monkeypatch.setattr(render, "render_reports", writes_the_pages)
    written = write_review(sample_db, "2026-10", None, out)
    # in the order written (as printed, and as --pdf prints them), not the folder's
    assert [p.name for p in written] == ["trends_2026-10.html", "monthly_review_2026-10.html", "review_2026-10.xlsx"]
    assert all(p.parent == out for p in written) and sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)
    assert (out / "monthly_review_2026-10.html").read_text() == "the new set"


def test_a_month_after_the_accounts_date_is_said_in_the_notes_returned_not_printed(sample_db, tmp_path, monkeypatch,
                                                                                  capsys):
    import nbformat

    monkeypatch.setattr(render, "_run_notebook", lambda name, title, params, *engine: nbformat.v4.new_notebook())
    monkeypatch.setattr(render, "notebook_html", lambda nb, title: "<html></html>")
    pages = render.render_reports(sample_db, "2026-12", None, tmp_path / "a")      # drawn up to 30-11-2026
    assert [n for n in pages.notes if "drawn up to 30-11-2026, before 2026-12 begins" in n]
    assert capsys.readouterr().err == ""            # step code prints nothing: the door says the notes
    pages = render.render_reports(sample_db, "2026-11", None, tmp_path / "b")
    assert pages.notes == [] and len(pages) == len(render.REPORTS)


def test_the_notes_of_the_pages_reach_the_review_and_the_command_line(sample_db, tmp_path, run_cli, monkeypatch):
    import importlib

    review = importlib.import_module("pipeline.steps.review")     # the module (pipeline.steps.review is its function)

    monkeypatch.setattr(review, "write_review", lambda *a, **options: render.Pages([], ["note: what the pages say"]))
    code, _, err = run_cli("report", "--db", sample_db, "--month", "2026-10", "--out", tmp_path)
    assert code == 0 and "note: what the pages say" in err.splitlines()


@pytest.mark.parametrize("period, month", [
    (("--financial-year", "2026-27"), "2026-11"),      # a year still running: the accounts' month (30-11-2026)
    (("--financial-year", "2025-26"), "2026-03"),      # a year ended: its last month
    (("--from", "2026-09-01"), "2026-11"),             # --from alone runs to the accounts' date
    (("--from", "2026-09-01", "--to", "2026-10-15"), "2026-10"),
])
def test_a_period_is_drawn_for_its_last_month_up_to_the_accounts_date(sample_db, tmp_path, run_cli, monkeypatch,
                                                                      period, month):
    import importlib

    review = importlib.import_module("pipeline.steps.review")     # the module (pipeline.steps.review is its function)

    drawn = []
    monkeypatch.setattr(review, "write_review", lambda db, m, *rest, **options: drawn.append(m) or render.Pages())
    code, _, err = run_cli("report", "--db", sample_db, *period, "--out", tmp_path)
    assert code == 0, err
    assert drawn == [month]


@pytest.mark.parametrize("scope, said", [(("--local-authority", "LA01"), True), ((), False)])
def test_a_local_authority_is_said_to_limit_the_reconciliation_page_only(sample_db, tmp_path, run_cli, monkeypatch,
                                                                          scope, said):
    import importlib

    review = importlib.import_module("pipeline.steps.review")     # the module (pipeline.steps.review is its function)

    monkeypatch.setattr(review, "write_review", lambda *a, **options: render.Pages())
    code, _, err = run_cli("report", "--db", sample_db, "--month", "2026-10", *scope, "--out", tmp_path)
    assert code == 0, err
    assert ("note: --local-authority LA01 limits the reconciliation page; the monthly review and the trends are "
            "by pound, for Mysuru" in err) == said


def test_report_command_prints_one_line_for_a_missing_database(tmp_path, run_cli):
    code, _, err = run_cli("report", "--db", tmp_path / "nope.duckdb", "--month", "2026-10", "--out", tmp_path)
    assert code == 1 and err.startswith("pound: database") and "Traceback" not in err


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_has_parameters_and_is_thin(path):
    nb = read_notebook(path)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1
    names = {t.id for node in ast.walk(ast.parse(params[0].source)) if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)}
    # the reconciliation also takes the local authority and period of its balances (issue 14)
    scoped = {"local_authority", "period_from", "period_to"} if path.stem == "reconciliation" else set()
    # the monthly review is told, in the copy a close seals, who is closing the month and the close's figures id
    scoped |= {"sealing", "sealed_id"} if path.stem == "monthly_review" else set()
    assert names == {"db", "month", "district"} | scoped
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert any(c.cell_type == "markdown" for c in nb.cells)
    for c in code:
        src = c.source
        ast.parse(src)
        assert not SQL_WORDS.search(src), src            # what a page reads lives in pipeline/reports and pipeline/read
        assert ".execute(" not in src and ".sql(" not in src and "import duckdb" not in src, src
        logic = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While)
        assert not any(isinstance(n, logic) for n in ast.walk(ast.parse(src))), src   # logic lives in the package
        lines = [ln for ln in src.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        assert len(lines) <= 16, src
    assert sum(len(c.source.splitlines()) for c in code) <= 110
    assert "pio.renderers.default" not in "".join(c.source for c in code)  # charts.setup() does it


def test_explore_has_its_parameters_and_queries_only_finished_tables():
    nb = read_notebook(EXPLORE)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1
    names = [t.id for node in ast.walk(ast.parse(params[0].source)) if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)]
    assert names == ["db", "district", "from_month", "to_month"]
    assert set(render.notebook_parameters("explore", Path("x"), "2026-10", None)) == set(names)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    queries = [q for src in code for q in re.findall(r'"""(.*?)"""', src, re.S)]
    assert len(queries) == 8                                   # one per question
    for q in queries:
        read = set(re.findall(r"\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)", q))
        assert read and read <= FINISHED, read                 # never a register, staging or intermediate table
        assert not re.search(r"\b(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|ATTACH|COPY)\b", q, re.I), q
    for src in code:
        ast.parse(src)
        logic = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While)
        assert not any(isinstance(n, logic) for n in ast.walk(ast.parse(src))), src   # logic lives in the package


def test_the_notebooks_read_pound_db_or_else_the_demo(monkeypatch, tmp_path):
    from pipeline.core import paths

    monkeypatch.delenv("POUND_DB", raising=False)
    assert paths.database(None) == paths.ROOT / "demo" / "pound.duckdb"
    monkeypatch.setenv("POUND_DB", str(tmp_path / "p.duckdb"))
    assert paths.database(None) == tmp_path / "p.duckdb"
    assert paths.database("given.duckdb") == Path("given.duckdb")        # the parameters cell wins
    for path in [*NOTEBOOKS, EXPLORE]:
        params = next(c for c in read_notebook(path).cells if "parameters" in c.metadata.get("tags", []))
        assert params.source.startswith("db = None"), path.name


def test_template_loads_nothing_from_the_network():
    text = (render.TEMPLATE_DIR / "pound" / "index.html.j2").read_text()
    assert "http" not in text and "src=" not in text


def test_strip_remote():
    page = ('<head><script src="https://cdn.example.org/require.js"></script><script src=//x.org/a.js></script>'
            '<link rel="stylesheet" href="https://fonts.example.org/a.css"><script>var a = 1;</script></head>')
    cleaned = assets.strip_remote(page)
    assert assets.remote_references(cleaned) == []
    assert "<script>var a = 1;</script>" in cleaned
    assert len(assets.remote_references(page)) == 3


@pytest.mark.notebook
def test_render_returns_the_four_pages_named_by_month(october, quiet_month):
    # the monthly review, the reconciliation, the trends and the explore page (render.REPORTS)
    assert len(render.REPORTS) == 4
    assert [p.name for p in october.values()] == ["monthly_review_2026-10.html", "reconciliation_2026-10.html",
                                                  "trends_2026-10.html", "explore_2026-10.html"]
    assert [p.name for p in quiet_month.values()] == ["monthly_review_2026-05_Mysuru.html",
                                                      "reconciliation_2026-05_Mysuru.html",
                                                      "trends_2026-05_Mysuru.html", "explore_2026-05_Mysuru.html"]


@pytest.mark.notebook
@pytest.mark.parametrize("name", [n for n, _ in render.REPORTS])
def test_page_loads_nothing_remote_with_code_hidden(october, name):
    page = october[name].read_text(encoding="utf-8")
    assert assets.remote_references(page) == []
    assert not re.search(r"<(script|img|iframe)\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//", page, re.I)
    assert not re.search(r"<link\b[^>]*href\s*=\s*[\"']?(https?:)?//", page, re.I)
    # plotly.js is not in the page: the pages of the folder share one copy beside them
    assert page.count("* plotly.js v") == 0
    assert page.count(f'<script src="{render.PLOTLY_FILE}" charset="utf-8"></script>') == 1
    assert (october[name].parent / render.PLOTLY_FILE).stat().st_size > 1_000_000
    assert "from pipeline" not in page and "charts.setup()" not in page   # code hidden
    if name == "explore":
        assert 'id="parameters"' in page and "the first to 2026-10" in re.sub(r"<[^>]+>", "", page)
        return
    assert 'id="parameters"' in page and "2026-10 (October 2026" in re.sub(r"<[^>]+>", "", page)
    if name == "monthly_review":     # the month at a glance comes first, then what the review was drawn from
        assert page.index('class="pound-glance"') < page.index('id="parameters"') < page.index('id="rollforward"')
        return
    assert page.index('id="parameters"') < page.index('class="pound-table"')   # the parameters come first


@pytest.mark.notebook
def test_quiet_month_renders_and_says_so(quiet_month):
    review = quiet_month["monthly_review"].read_text(encoding="utf-8")
    assert "Nothing was impounded, released, sold, paid or found in May 2026." in review
    assert "No findings for May 2026." in review and "Mysuru district" in review


def test_the_reconciliation_of_one_local_authority_is_a_file_of_its_own(tmp_path):
    names = [p.name for p in render.report_paths(tmp_path, "2026-11", "Mysuru", "LA01")]
    assert names == ["monthly_review_2026-11_Mysuru.html", "reconciliation_2026-11_Mysuru_LA01.html",
                     "trends_2026-11_Mysuru.html", "explore_2026-11_Mysuru.html"]
    assert [p.name for p in render.report_paths(tmp_path, "2026-11", None)][1] == "reconciliation_2026-11.html"


def test_a_districts_pages_are_read_on_one_thread(sample_db, tmp_path, monkeypatch):
    import nbformat

    from pipeline.read.database import connect

    monkeypatch.delenv("POUND_THREADS", raising=False)
    seen = []

    def run(name, title, params, *engine):        # what a notebook's own connection finds
        con = connect(params["db"])
        try:
            seen.append(con.execute("SELECT current_setting('threads')").fetchone()[0])
        finally:
            con.close()
        return nbformat.v4.new_notebook()

    monkeypatch.setattr(render, "_run_notebook", run)
    monkeypatch.setattr(render, "notebook_html", lambda nb, title: "<html></html>")
    render.render_reports(sample_db, "2026-10", None, tmp_path / "a")
    assert seen == [1] * len(render.REPORTS)

