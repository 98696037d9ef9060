"""The reports: queries, money as text, figures, the notebooks, and the pages in a real browser.

The sample bundle is run once (`pound run data/sample --as-of 2026-11-30`) and its
reports rendered twice: for 2026-10, the busiest month, and for 2026-05, a month
with nothing in it (with --district written in another case). The browser tests
open each page in headless Chromium, refuse every request that is not file: or
data:, and check that the charts were drawn and that known figures are on the page.
"""

from __future__ import annotations

import ast
import datetime as dt
import re
import shutil
import subprocess
import time
from pathlib import Path

import duckdb
import jupytext
import pandas as pd
import pytest
from helpers import REFERENCE, case, load, make_bundle

from pipeline import reports
from pipeline.build import build
from pipeline.core.errors import PoundError
from pipeline.core.params import Parameters
from pipeline.reports import charts

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = [ROOT / "notebooks" / f"{name}.py" for name, _ in reports.REPORTS]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
RENDER_SECONDS: dict[str, float] = {}


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def sample_db(tmp_path_factory) -> Path:
    from pipeline.cli import main

    out = tmp_path_factory.mktemp("sample_run")
    assert main(["run", str(ROOT / "data" / "sample"), "--out", str(out), "--as-of", "2026-11-30"]) == 0
    return out / "pound.duckdb"


@pytest.fixture(scope="session")
def con(sample_db):
    c = reports.connect(sample_db)
    yield c
    c.close()


def _render(db: Path, month: str, district, out: Path) -> dict[str, Path]:
    t0 = time.perf_counter()
    paths = reports.render_reports(db, month, district, out)
    RENDER_SECONDS[month] = time.perf_counter() - t0
    assert all(p.parent == out and p.stat().st_size > 0 for p in paths)
    return {name: p for (name, _), p in zip(reports.REPORTS, paths, strict=True)}


@pytest.fixture(scope="session")
def october(sample_db, tmp_path_factory) -> dict[str, Path]:
    return _render(sample_db, "2026-10", None, tmp_path_factory.mktemp("reports_2026-10"))


@pytest.fixture(scope="session")
def quiet_month(sample_db, tmp_path_factory) -> dict[str, Path]:
    # a month with no activity, and the district written in lower case
    return _render(sample_db, "2026-05", "mysuru", tmp_path_factory.mktemp("reports_2026-05"))


@pytest.fixture(scope="session")
def two_districts(tmp_path_factory) -> Path:
    """A built database with a pound in Mysuru (P1) and one in Mandya (P2)."""
    root = tmp_path_factory.mktemp("two_districts")
    las = [dict(r) for r in REFERENCE["local_authorities"]]
    las[1]["district"] = "Mandya"
    pounds = [dict(r) for r in REFERENCE["pounds"]]
    pounds[1]["district"] = "Mandya"
    bundle = make_bundle(root / "bundle", local_authorities=las, pounds=pounds,
                         impoundments=[case("C1", "P1", "2026-10-03", head_count=2, owner_id="O1"),
                                       case("C2", "P2", "2026-10-05", head_count=3, owner_id="O2"),
                                       case("C3", "P2", "2026-10-20", head_count=1, owner_id="O2")])
    path = root / "pound.duckdb"
    c, result = load(bundle, path)
    assert not result.rejected
    build(c, Parameters({}, as_of=dt.date(2026, 11, 30)))
    c.close()
    return path


# --------------------------------------------------------------------------- money and months

@pytest.mark.parametrize("paise, text", [
    (0, "0.00"), (5, "0.05"), (100, "1.00"), (2200000, "22,000.00"), (-10000, "-100.00"), (-150, "-1.50"),
    (-5, "-0.05"), (123456789012, "1,234,567,890.12"), (None, ""), (pd.NA, ""), (float("nan"), ""),
    (250000.0, "2,500.00"),
])
def test_rupees_writes_exact_paise(paise, text):
    assert reports.rupees(paise) == text


def test_rupees_refuses_fractions_of_a_paisa():
    with pytest.raises(TypeError):
        reports.rupees(100.5)


def test_rupees_takes_numpy_and_pandas_integers():
    s = pd.Series([2200000, -10000], dtype="Int64")
    assert [reports.rupees(v) for v in s] == ["22,000.00", "-100.00"]
    assert reports.rupees(pd.Series([7], dtype="int64")[0]) == "0.07"


def test_month_bounds():
    assert reports.month_bounds("2028-02") == (dt.date(2028, 2, 1), dt.date(2028, 2, 29))
    assert reports.month_bounds("2026-12") == (dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    for bad in ("2026-13", "2026-1", "Oct 2026", "", None):
        with pytest.raises(PoundError, match="is not a month written YYYY-MM"):
            reports.month_bounds(bad)


# --------------------------------------------------------------------------- errors a user can act on

def test_missing_database_is_a_plain_error(tmp_path):
    with pytest.raises(PoundError, match="does not exist"):
        reports.render_reports(tmp_path / "nope.duckdb", "2026-10", None, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_file_that_is_not_a_database_is_a_plain_error(tmp_path):
    p = tmp_path / "x.duckdb"
    p.write_text("not a database")
    with pytest.raises(PoundError, match="is not a database written by 'pound run'"):
        reports.connect(p)


def test_a_database_never_built_is_a_plain_error(tmp_path):
    p = tmp_path / "raw.duckdb"
    duckdb.connect(str(p)).close()
    with pytest.raises(PoundError, match="holds no finished accounts .*pound build"):
        reports.connect(p)


def test_bad_month_and_unknown_district_fail_before_any_kernel(sample_db, tmp_path):
    with pytest.raises(PoundError, match="not a month"):
        reports.render_reports(sample_db, "2026-10-01", None, tmp_path / "o")
    with pytest.raises(PoundError, match="no pound is in district 'Mandya'; the database has 'Mysuru'"):
        reports.render_reports(sample_db, "2026-10", "Mandya", tmp_path / "o")


def test_a_pound_error_inside_a_notebook_reaches_the_user_as_one(tmp_path):
    with pytest.raises(PoundError, match="does not exist"):
        reports._run_notebook("trends", "Impoundment trends",
                              {"db": str(tmp_path / "gone.duckdb"), "month": "2026-10", "district": None})


def test_report_command_prints_one_line_for_a_missing_database(tmp_path, run_cli):
    code, _, err = run_cli("report", "--db", tmp_path / "nope.duckdb", "--month", "2026-10", "--out", tmp_path)
    assert code == 1 and err.startswith("pound: database") and "Traceback" not in err


def test_the_connection_is_read_only(con):
    with pytest.raises(duckdb.Error):
        con.execute("DELETE FROM findings")


# --------------------------------------------------------------------------- the monthly review's figures

def test_rollforward_of_october(con):
    roll = reports.rollforward(con, "2026-10").set_index("pound_id")
    assert roll.loc["P02", ["heads_start", "heads_impounded", "heads_released", "heads_sold", "heads_end"]].tolist() \
        == [0, 10, 2, 8, 0]
    assert (roll["ties"] == "yes").all()


def test_money_stays_integer_paise(con):
    frames = {
        "received": (reports.money_received(con, "2026-10"), ["amount"]),
        "passed_on": (reports.money_passed_on(con, "2026-10"), ["amount"]),
        "sales": (reports.sales_in_month(con, "2026-10"), list(reports.SALE_MONEY)),
        "by_pound": (reports.money_by_pound(con, "2026-10"), ["P01", "P02", "P03", "all pounds"]),
        "by_authority": (reports.reconciliation_by_authority(con), ["expected", "credited", "difference"]),
        "fines": (reports.fines_due_vs_collected(con, "2026-10"), ["fines_due", "fines_collected", "not_collected"]),
    }
    for name, (df, cols) in frames.items():
        for c in cols:
            assert pd.api.types.is_integer_dtype(df[c]), (name, c, df[c].dtype)


def test_money_received_is_every_first_movement_of_the_month(con):
    received = reports.money_received(con, "2026-10")
    total = con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1 "
                        "AND due_on BETWEEN DATE '2026-10-01' AND DATE '2026-10-31'").fetchone()[0]
    assert sum(int(v) for v in received["amount"]) == total == 5490000


def test_the_s17_sale_of_n_2610_013(con):
    sales = reports.sales_in_month(con, "2026-10").set_index("case_id")
    row = sales.loc["N-2610-013"]
    assert reports.rupees(row["sale_proceeds"]) == "22,000.00"
    assert row["sale_under"].startswith("s.17")
    assert int(row["balance_to_owner"]) == 550000


def test_findings_are_high_severity_first(con):
    f = reports.findings_in_month(con, "2026-10")
    assert f["severity"].tolist() == sorted(f["severity"], key=["high", "medium", "low"].index)
    top = f.iloc[0]
    assert (top["rule_id"], top["subject"], top["section"]) == ("SALE-OFFICIAL-BUYER", "sale S-006", "19(1)")
    assert "Ramesh Gowda" in top["detail"]


def test_deadlines_after_october(con):
    d = reports.deadlines(con, "2026-10")
    got = {(r.case_id, r.deadline, r.due_on.date().isoformat()) for r in d.itertuples()}
    assert got == {("H-2610-019", "claim window ends", "2026-11-04"),
                   ("H-2610-019", "report to the police due", "2026-11-05"),
                   ("M-2610-008", "auction allowed from", "2026-11-06")}
    # M-2610-007 went under protest on 2026-10-06 but its complaint was filed on 2026-10-10
    assert "M-2610-007" not in set(d["case_id"])


def test_deadlines_after_november(con):
    d = reports.deadlines(con, "2026-11")
    got = {(r.case_id, r.deadline) for r in d.itertuples()}
    assert got == {("N-2611-015", "claim window ends"), ("N-2611-015", "report to the police due"),
                   ("M-2610-008", "auction overdue after")}
    assert (d["days_after_month_end"] <= 7).all()


def test_a_quiet_month_has_no_activity(con):
    assert reports.month_has_activity(con, "2026-10", None)
    assert not reports.month_has_activity(con, "2026-05", None)
    assert not reports.month_has_activity(con, "2031-01", "Mysuru")


def test_busiest_month_of_the_sample(con):
    assert reports.busiest_month(con) == "2026-10"


# --------------------------------------------------------------------------- reconciliation

def test_reconciliation_totals_tie(con):
    ties = {t["ledger"]: t for t in reports.reconciliation_totals(con)}
    assert set(ties) == {"local_fund", "dm_deposit"}
    for t in ties.values():
        assert t["ties"]
        by = t["by_status"]
        assert t["expected_total"] == sum(by[s][1] for s in reports.EXPECTED_SIDE)
        assert t["credited_total"] == sum(by[s][2] for s in reports.LEDGER_SIDE)
    lf = ties["local_fund"]
    assert lf["by_status"]["amount_mismatch"] == (1, 60000, 50000)
    assert lf["by_status"]["unexpected"] == (1, 0, 250000)


def test_every_break_is_listed_with_its_difference(con):
    rows = reports.reconciliation_rows(con)
    breaks = reports.reconciliation_breaks(rows)
    assert len(breaks) == int((rows["status"] != "matched").sum())
    r = breaks[breaks["reference"] == "N-2609-012"].iloc[0]
    assert (r["status"], reports.rupees(r["difference"])) == ("amount_mismatch", "-100.00")
    assert breaks.iloc[0]["status"] == "amount_mismatch"


def test_ageing_of_missing(con):
    aged = reports.ageing(reports.reconciliation_rows(con)).set_index("days_outstanding")
    assert int(aged["items"].sum()) == 2
    assert aged.loc["31-60 days", "dm_deposit"] == 485000      # H-2610-018's surplus, 42 days
    assert aged.loc["61-90 days", "local_fund"] == 120000      # H-2609-017's fines, 79 days
    assert int(aged["amount"].sum()) == 605000


def test_totals_html_writes_both_sums(con):
    page = reports.totals_html(con)
    assert "Expected: 46,550.00 = matched 14,400.00 + late 750.00" in page
    assert "amount mismatch 500.00 + unexpected 2,500.00" in page
    assert page.count(">yes<") == 2


# --------------------------------------------------------------------------- trends

def test_trends_queries(con):
    assert reports.months_upto(con, "2026-10")[0] == "2026-03" and reports.months_upto(con, "2026-10")[-1] == "2026-10"
    by_class = reports.impoundments_by_class(con, "2026-10").set_index("month")
    assert by_class.loc["2026-10", "cattle"] == 11 and by_class.loc["2026-10", "all classes"] == 17
    out = reports.outcomes_by_month(con, "2026-10").set_index("month")
    assert out.loc["2026-10", "cases"] == 7 and out.loc["2026-10", "sold_unclaimed"] == 2
    ttr = reports.time_to_release(con, "2026-10").set_index("case_id")
    assert ttr.loc["M-2608-003", "days"] == 17
    owners = reports.repeat_owners(con, "2026-10")
    assert set(owners["owner_id"]) == {"O101", "O201"} and (owners["cases"] > 1).all()
    fines = reports.fines_due_vs_collected(con, "2026-10").set_index("month")
    assert (fines.loc["2026-10", "fines_due"], fines.loc["2026-10", "fines_collected"]) == (820000, 440000)


def test_district_filter(two_districts):
    c = reports.connect(two_districts)
    try:
        assert reports.check_district(c, "mandya") == "Mandya"
        assert reports.check_district(c, None) is None and reports.check_district(c, " ") is None
        every = reports.rollforward(c, "2026-10")
        mandya = reports.rollforward(c, "2026-10", "Mandya")
        mysuru = reports.rollforward(c, "2026-10", "Mysuru")
        assert set(every["pound_id"]) == {"P1", "P2"}
        assert mandya["pound_id"].tolist() == ["P2"] and int(mandya["heads_impounded"].sum()) == 4
        assert mysuru["pound_id"].tolist() == ["P1"] and int(mysuru["heads_impounded"].sum()) == 2
        assert set(reports.impoundments_by_month(c, "2026-10", "Mandya")["pound_id"]) == {"P2"}
        assert reports.repeat_owners(c, "2026-10", "Mysuru").empty
        assert reports.repeat_owners(c, "2026-10", "Mandya")["owner_id"].tolist() == ["O2"]
        la = set(reports.reconciliation_rows(c, "Mandya")["local_authority_id"].dropna())
        assert la <= {"LA2"}
    finally:
        c.close()


# --------------------------------------------------------------------------- tables and figures

def test_table_writes_money_and_escapes_text():
    df = pd.DataFrame({"case_id": ["A<1>", "B"], "amount": pd.array([2200000, -10000], dtype="Int64"),
                       "heads": [3, 4]})
    page = reports.table(df, money=["amount"], table_id="t", total="total")
    assert 'id="t"' in page and "A&lt;1&gt;" in page and "A<1>" not in page
    assert '<td class="num money" data-col="amount">22,000.00</td>' in page
    assert '<td class="num money" data-col="amount">-100.00</td>' in page
    assert "21,900.00" in page and '<td class="num" data-col="heads">7</td>' in page
    assert "amount (Rs)" in page
    assert "Nothing here" in reports.table(df.iloc[0:0], empty="Nothing here")


def test_charts_have_titles_and_axis_titles(con):
    month = "2026-10"
    months = reports.months_upto(con, month)
    rows = reports.reconciliation_rows(con)
    figs = {
        "rollforward": charts.rollforward(reports.rollforward(con, month), "October 2026"),
        "money": charts.money_received(reports.money_received(con, month), "October 2026"),
        "findings": charts.findings_by_rule(reports.findings_in_month(con, month), "October 2026"),
        "by_authority": charts.reconciliation_by_authority(reports.reconciliation_by_authority(con)),
        "status": charts.reconciliation_status(rows),
        "ageing": charts.ageing(reports.ageing(rows)),
        "impoundments": charts.impoundments(reports.impoundments_by_month(con, month), months),
        "by_taluk": charts.impoundments(reports.impoundments_by_month(con, month), months, by="taluk"),
        "by_class": charts.impoundments_by_class(reports.impoundments_by_class(con, month), months),
        "shares": charts.outcome_shares(reports.outcomes_by_month(con, month), months),
        "ttr": charts.time_to_release(reports.time_to_release(con, month)),
        "owners": charts.repeat_owners(reports.repeat_owners(con, month)),
        "fines": charts.fines(reports.fines_due_vs_collected(con, month), months),
    }
    for name, fig in figs.items():
        assert fig is not None, name
        lay = fig.layout
        assert lay.title.text, name
        assert lay.xaxis.title.text or lay.yaxis.title.text, name
        assert len(fig.data) >= 1, name
    for name in ("money", "by_authority", "status", "ageing", "fines"):
        titles = (figs[name].layout.xaxis.title.text or "") + (figs[name].layout.yaxis.title.text or "")
        assert "Rupees" in titles, name
    for name in ("rollforward", "impoundments", "by_class"):
        assert figs[name].layout.yaxis.title.text == "Heads", name
    # rupees are plotted from exact paise: 22,000.00 of N-2610-013 is in the s.17 bar
    assert charts.rollforward(reports.rollforward(con, "2031-01"), "x") is None


def test_offline_renderer_adds_no_script_src():
    import plotly.graph_objects as go

    charts.setup()
    import plotly.io as pio

    bundle = pio.renderers[charts.RENDERER].to_mimebundle(go.Figure(go.Bar(x=[1], y=[2])).to_dict())
    page = bundle["text/html"]
    assert "<script src" not in page.replace(" ", "") and "cdn" not in page.lower()


def test_strip_remote():
    page = ('<head><script src="https://cdn.example.org/require.js"></script><script src=//x.org/a.js></script>'
            '<link rel="stylesheet" href="https://fonts.example.org/a.css"><script>var a = 1;</script></head>')
    cleaned = reports.strip_remote(page)
    assert reports.remote_references(cleaned) == []
    assert "<script>var a = 1;</script>" in cleaned
    assert len(reports.remote_references(page)) == 3


# --------------------------------------------------------------------------- the notebooks

SQL_WORDS = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|ATTACH|COPY|PRAGMA|EXPORT)\b")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_has_parameters_and_is_thin(path):
    nb = jupytext.read(path)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1
    names = {t.id for node in ast.walk(ast.parse(params[0].source)) if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name)}
    assert names == {"db", "month", "district"}
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert any(c.cell_type == "markdown" for c in nb.cells)
    for c in code:
        src = c.source
        ast.parse(src)
        assert not SQL_WORDS.search(src), src            # queries live in pipeline/reports.py
        assert ".execute(" not in src and ".sql(" not in src and "import duckdb" not in src, src
        logic = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While)
        assert not any(isinstance(n, logic) for n in ast.walk(ast.parse(src))), src   # logic lives in the package
        lines = [ln for ln in src.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        assert len(lines) <= 10, src
    assert sum(len(c.source.splitlines()) for c in code) <= 90
    assert "pio.renderers.default" not in "".join(c.source for c in code)  # charts.setup() does it


def test_template_loads_nothing_from_the_network():
    text = (reports.TEMPLATE_DIR / "pound" / "index.html.j2").read_text()
    assert "http" not in text and "src=" not in text


# --------------------------------------------------------------------------- the rendered pages (no browser)

def test_render_returns_three_pages_named_by_month(october, quiet_month):
    assert [p.name for p in october.values()] == ["monthly_review_2026-10.html", "reconciliation_2026-10.html",
                                                  "trends_2026-10.html"]
    assert [p.name for p in quiet_month.values()] == ["monthly_review_2026-05_Mysuru.html",
                                                      "reconciliation_2026-05_Mysuru.html",
                                                      "trends_2026-05_Mysuru.html"]


@pytest.mark.parametrize("name", [n for n, _ in reports.REPORTS])
def test_page_is_self_contained_with_code_hidden(october, name):
    page = october[name].read_text(encoding="utf-8")
    assert reports.remote_references(page) == []
    assert not re.search(r"<(script|img|iframe)\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//", page, re.I)
    assert not re.search(r"<link\b[^>]*href\s*=\s*[\"']?(https?:)?//", page, re.I)
    assert page.count("* plotly.js v") == 1                  # plotly.js embedded once
    assert "from pipeline import" not in page and "charts.setup()" not in page   # code hidden
    assert 'id="parameters"' in page and "2026-10 (October 2026" in page
    assert page.index('id="parameters"') < page.index('class="pound-table"')   # the parameters come first


def test_quiet_month_renders_and_says_so(quiet_month):
    review = quiet_month["monthly_review"].read_text(encoding="utf-8")
    assert "Nothing was impounded, released, sold, paid or found in May 2026." in review
    assert "No findings for May 2026." in review and "Mysuru district" in review


def test_render_time(october):
    # the target is under 30 s for one month's three reports on a 2-core machine
    assert RENDER_SECONDS["2026-10"] < 60, RENDER_SECONDS


# --------------------------------------------------------------------------- in a real browser

class Browser:
    """Headless Chromium through playwright; every request is recorded and all but file: and data: refused."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self._browser = self._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception:
            self._pw.stop()
            raise

    def open(self, path: Path, charts: bool = True):
        context = self._browser.new_context()
        requests: list[str] = []

        def route(r):
            requests.append(r.request.url)
            if r.request.url.startswith(("file:", "data:")):
                r.continue_()
            else:
                r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("request", lambda req: requests.append(req.url))
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri(), wait_until="load")
        if charts:
            page.wait_for_selector(".main-svg", state="attached", timeout=15000)
        page.wait_for_timeout(300)
        return page, requests, errors

    def close(self):
        self._browser.close()
        self._pw.stop()


def _dump_dom(path: Path) -> str:
    res = subprocess.run([CHROMIUM, *CHROMIUM_ARGS, "--virtual-time-budget=10000", "--dump-dom", path.as_uri()],
                         capture_output=True, text=True, timeout=120)
    return res.stdout


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")
    try:
        b = Browser()
    except Exception as exc:  # playwright's driver did not start: fall back to chromium --dump-dom
        yield ("dump-dom", str(exc))
        return
    yield b
    b.close()


JS_CELL = """([table, keyCol, key, col]) => {
  for (const tr of document.querySelectorAll(`#${table} tbody tr`)) {
    const k = tr.querySelector(`td[data-col="${keyCol}"]`);
    if (k && k.textContent.trim() === key) {
      const c = tr.querySelector(`td[data-col="${col}"]`);
      return c ? c.textContent.trim() : null;
    }
  }
  return null;
}"""


def _check_page(browser, path: Path, min_charts: int):
    """Open a page; returns a function cell(table, key_col, key, col) -> text and the page's text."""
    if isinstance(browser, tuple):   # fallback: the DOM after scripts ran; no request log
        dom = _dump_dom(path)
        assert dom.count('class="main-svg"') >= min_charts
        assert reports.remote_references(dom) == []
        return None, re.sub(r"<[^>]+>", " ", dom)
    page, requests, errors = browser.open(path)
    offsite = [u for u in requests if not u.startswith(("file:", "data:"))]
    assert offsite == [], offsite
    assert errors == [], errors
    assert page.locator(".main-svg").count() >= min_charts
    # every chart container holds a drawn plot
    assert page.evaluate("[...document.querySelectorAll('.plotly-graph-div')].every(d => d.querySelector('.main-svg'))")

    def cell(table, key_col, key, col):
        return page.evaluate(JS_CELL, [table, key_col, key, col])

    return cell, page.inner_text("body")


@pytest.mark.browser
def test_the_browser_check_sees_a_cdn_request(browser, tmp_path):
    if isinstance(browser, tuple):
        pytest.skip(f"playwright did not start ({browser[1]}); the pages were checked with --dump-dom")
    page = tmp_path / "cdn.html"
    page.write_text('<html><head><script src="https://cdn.example.org/require.js"></script></head><body>x</body></html>')
    _, requests, _ = browser.open(page, charts=False)
    assert "https://cdn.example.org/require.js" in requests


@pytest.mark.browser
def test_monthly_review_in_a_browser(browser, october):
    cell, text = _check_page(browser, october["monthly_review"], min_charts=3)
    assert "Monthly accounts review" in text and "October 2026, all districts" in text
    if cell:
        assert cell("rollforward", "pound_id", "P02", "heads_impounded") == "10"
        assert cell("rollforward", "pound_id", "P02", "ties") == "yes"
        assert cell("sales", "case_id", "N-2610-013", "sale_proceeds") == "22,000.00"
        assert cell("sales", "case_id", "N-2610-013", "sale_under").startswith("s.17")
        assert cell("findings", "subject", "sale S-006", "rule_id") == "SALE-OFFICIAL-BUYER"
        assert cell("findings", "subject", "sale S-006", "severity") == "high"
        assert cell("deadlines", "case_id", "M-2610-008", "deadline") == "auction allowed from"
        assert cell("money-received", "account", "dm_deposit", "amount") == "15,800.00"
    else:
        assert "22,000.00" in text and "SALE-OFFICIAL-BUYER" in text and "S-006" in text
    # high severity first: the first finding row is the high one
    assert text.index("SALE-OFFICIAL-BUYER") < text.index("S15-NOTICE-MISSING")


@pytest.mark.browser
def test_reconciliation_in_a_browser(browser, october):
    cell, text = _check_page(browser, october["reconciliation"], min_charts=3)
    assert "Local fund reconciliation" in text and "Totals that tie" in text
    if cell:
        assert cell("breaks", "reference", "N-2609-012", "status") == "amount_mismatch"
        assert cell("breaks", "reference", "N-2609-012", "difference") == "-100.00"
        assert cell("breaks", "reference", "H-2609-017", "status") == "missing"
        assert cell("ageing", "days_outstanding", "61-90 days", "amount") == "1,200.00"
    assert "Expected: 46,550.00 = matched 14,400.00" in text


@pytest.mark.browser
def test_trends_in_a_browser(browser, october):
    cell, text = _check_page(browser, october["trends"], min_charts=7)
    assert "Impoundment trends" in text and "2026-03 to 2026-10" in text
    if cell:
        assert cell("by-class", "month", "2026-10", "all classes") == "17"
        assert cell("fines", "month", "2026-10", "fines_due") == "8,200.00"
        assert cell("fines", "month", "2026-10", "fines_collected") == "4,400.00"
        assert cell("repeat-owners", "owner_id", "O101", "cases") == "2"


@pytest.mark.browser
def test_reconciliation_breaks_show_whatever_the_month(browser, quiet_month):
    cell, text = _check_page(browser, quiet_month["reconciliation"], min_charts=2)
    if cell:
        assert cell("breaks", "reference", "N-2609-012", "difference") == "-100.00"
        assert cell("breaks", "reference", "N-2609-012", "status") == "amount_mismatch"
    else:
        assert "-100.00" in text and "amount_mismatch" in text


@pytest.mark.browser
def test_quiet_month_pages_open_offline(browser, quiet_month):
    # the review of a month with nothing in it has no chart to draw; trends still has its charts
    _, text = _check_page(browser, quiet_month["trends"], min_charts=3)
    assert "2026-03 to 2026-05, Mysuru district" in text


def test_a_long_table_shows_its_first_rows_and_says_how_many_more():
    import pandas as pd

    from pipeline import reports
    df = pd.DataFrame({"case_id": [f"C{i}" for i in range(1200)], "amount": [100] * 1200})
    out = str(reports.table(df, money=["amount"], total="all", max_rows=500))
    assert out.count("<tr>") == 1 + 500 and "C499" in out and "C500" not in out
    assert "The first 500 of 1,200 rows are shown (the total is of all of them)" in out
    assert ">1,200.00<" in out                       # the total counts every row: 1,200 x Rs 1.00
    assert "are shown" not in str(reports.table(df.head(10), money=["amount"]))


def test_charts_stay_readable_at_state_scale():
    import pandas as pd

    from pipeline.reports import charts
    months = ["2025-01", "2025-02"]
    df = pd.DataFrame({"month": months * 30, "pound_id": [f"P{i:03d}" for i in range(30) for _ in range(2)],
                       "heads_impounded": list(range(60))})
    fig = charts.impoundments(df, months)
    names = [t.name for t in fig.data]
    assert len(names) == charts.SERIES_SHOWN and names[-1] == "19 others" and names[0] == "P029"
    many = pd.DataFrame({"status": ["released"] * 5000, "days": list(range(5000)), "case_id": ["C"] * 5000})
    box = charts.time_to_release(many).data[0]
    assert box.boxpoints is False and box.median == (2499.5,)


# --------------------------------------------------------------------------- the golden bundle, in a browser

GOLDEN_BUNDLE = Path(__file__).resolve().parent / "golden" / "bundle"


@pytest.fixture(scope="module")
def golden_august(tmp_path_factory) -> dict[str, Path]:
    from pipeline.cli import main

    out = tmp_path_factory.mktemp("golden_run")
    assert main(["run", str(GOLDEN_BUNDLE), "--out", str(out), "--as-of", "2026-12-31"]) == 0
    return _render(out / "pound.duckdb", "2026-08", None, out / "reports")


@pytest.mark.browser
def test_golden_monthly_review_in_a_browser(browser, golden_august):
    cell, text = _check_page(browser, golden_august["monthly_review"], min_charts=2)
    assert "August 2026, all districts" in text and "No findings for August 2026." in text
    # G05: 10 sheep in and sold at PB; G06: 3 cattle in at PA, 2 sold and 1 returned
    # money received: G05 9,000 + G06 12,000 (each sale's proceeds, by where they go)
    assert "21,000.00" in text and "12,000.00" in text and "4,850.00" in text
    if cell:
        assert cell("rollforward", "pound_id", "PB", "heads_impounded") == "10"
        assert cell("rollforward", "pound_id", "PB", "heads_sold") == "10"
        assert cell("rollforward", "pound_id", "PA", "heads_released") == "1"
        assert cell("sales", "case_id", "G06", "sale_proceeds") == "12,000.00"
        assert cell("sales", "case_id", "G05", "sale_proceeds") == "9,000.00"


@pytest.mark.browser
def test_golden_reconciliation_in_a_browser(browser, golden_august):
    cell, text = _check_page(browser, golden_august["reconciliation"], min_charts=2)
    assert "Totals that tie" in text
    if cell:
        assert cell("breaks", "reference", "G09", "status") == "amount_mismatch"
        assert cell("breaks", "reference", "G09", "difference") == "-50.00"
        assert cell("breaks", "reference", "G10", "status") == "missing"
        assert cell("breaks", "reference", "G06", "status") == "late"
    else:
        assert "amount_mismatch" in text and "-50.00" in text


@pytest.mark.browser
def test_golden_trends_in_a_browser(browser, golden_august):
    cell, text = _check_page(browser, golden_august["trends"], min_charts=5)
    assert "2026-02 to 2026-08" in text
    if cell:
        assert cell("by-class", "month", "2026-08", "all classes") == "13"       # G05 10 sheep + G06 3 cattle
        assert cell("fines", "month", "2026-08", "fines_due") == "2,800.00"      # 10 x 100 + 3 x 600
