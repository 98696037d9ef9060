"""Issue 39 item 1: after a register file is loaded past the last build, the review
workbook, the auditor's workbook and the explore page say at their top, in the words every page and
paper uses (record.stale_notice), that files were loaded after their figures; with no such load,
they say nothing of it (the near miss, in each test before the late load).

The office: data/sample copied to mysuru/ and November's month run (`pound month`, the reports
rendered by a stand-in); the late file is one impoundment of 25-11-2026, M-2611-030.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from helpers import office_copy

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
LATE_FILE = "registers/impoundments_2026-11_late.csv"
LATE_CASE = (
    "case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,head_count,"
    "description,owner_id,owner_name,owner_village\n"
    "M-2611-030,P01,25/11/2026,25/11/2026,10:00,Ring road Mysuru,Pound-keeper,cattle,2,Two cows,,,\n")
SAID = "Not up to date: 1 file(s) loaded after the figures were built (" + LATE_FILE + ")"


@pytest.fixture
def office(shared, tmp_path, monkeypatch):
    """data/sample copied to mysuru/, November's month run (`pound month`), reports by a stand-in: a copy
    of the office made once a session (helpers.office_copy)."""
    office_copy(shared, tmp_path, monkeypatch, closed=False)
    return tmp_path


def _late_load(root: Path, run_cli) -> None:
    (root / "mysuru" / LATE_FILE).write_text(LATE_CASE, encoding="utf-8")
    code, _, err = run_cli("ingest", "mysuru", "--db", "pound.duckdb")
    assert code == 0, err


def _texts(ws) -> list[str]:
    return [v for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)]


def test_the_review_workbook_says_files_were_loaded_after_its_figures(office, run_cli):
    from openpyxl import load_workbook

    root = office
    code, _, err = run_cli("report", "--db", "pound.duckdb", "--month", "2026-11", "--out", "fresh")
    assert code == 0 and "loaded after the figures" not in err                      # the near miss
    wb = load_workbook(root / "fresh" / "review_2026-11.xlsx")
    assert wb.sheetnames[0] == "finding_reviews" and wb.active.title == "finding_reviews"
    assert not any("loaded after" in v for ws in wb.worksheets for v in _texts(ws))

    _late_load(root, run_cli)
    code, _, err = run_cli("report", "--db", "pound.duckdb", "--month", "2026-11", "--out", "late")
    assert code == 0 and "loaded after the figures" in err                          # the warning line
    wb = load_workbook(root / "late" / "review_2026-11.xlsx")
    first = wb.worksheets[0]
    # the workbook opens on the sheet that says it, and says it first
    assert wb.active.title == first.title == "how to fill in"
    assert first["A1"].value.startswith(SAID) and first["A1"].font.b
    assert [v for ws in wb.worksheets for v in _texts(ws) if "loaded after" in v] == [first["A1"].value]
    # the decisions sheet is as before: the office fills it in and the loader reads it by name
    assert wb["finding_reviews"]["A1"].value == "rule_id"
    shutil.copy(root / "late" / "review_2026-11.xlsx", root / "mysuru" / "registers" / "review_2026-11.xlsx")
    code, out, err = run_cli("ingest", "mysuru", "--db", "pound.duckdb")
    assert code == 0, err
    assert "how to fill in" not in out + err and "left undecided" in out + err


def test_the_audit_workbook_says_files_were_loaded_after_its_figures(office, run_cli):
    from openpyxl import load_workbook

    root = office
    code, _, err = run_cli("workbook", "--db", "pound.duckdb", "--month", "2026-11", "--out", "fresh.xlsx")
    assert code == 0 and "loaded after the figures" not in err                      # the near miss
    cover = load_workbook(root / "fresh.xlsx")["cover"]
    assert cover["A1"].value.startswith("Audit workbook")
    assert not any("loaded after" in v for v in _texts(cover))

    _late_load(root, run_cli)
    code, _, err = run_cli("workbook", "--db", "pound.duckdb", "--month", "2026-11", "--out", "wb.xlsx")
    assert code == 0 and "loaded after the figures" in err
    wb = load_workbook(root / "wb.xlsx")
    cover = wb.worksheets[0]
    assert cover.title == "cover" and cover["A1"].value.startswith(SAID) and cover["A1"].font.b
    assert cover["A3"].value.startswith("Audit workbook")
    assert [v for v in _texts(cover) if "loaded after" in v] == [cover["A1"].value]


@pytest.mark.notebook
def test_the_explore_page_says_files_were_loaded_after_its_figures(shared, tmp_path, run_cli, monkeypatch):
    """The explore page rendered as `pound report` renders it (render_reports, the other pages left out)."""
    import re

    from pipeline.reports import render

    monkeypatch.setattr(render, "REPORTS", tuple(r for r in render.REPORTS if r[0] == "explore"))
    bundle = tmp_path / "mysuru"
    shutil.copytree(SAMPLE, bundle)
    db = shared.run(SAMPLE, "2026-11-30", tmp_path / "out") / "pound.duckdb"
    con = duckdb.connect(str(db))          # the run's bundle is now mysuru/ (as tests/close/test_close.py fresh)
    for table in ("loads", "stg_loads"):
        con.execute(f"UPDATE {table} SET bundle = ?", [str(bundle.resolve())])
    con.close()

    def page(out: str) -> str:
        [path] = render.render_reports(db, "2026-11", None, tmp_path / out)
        assert path.name == "explore_2026-11.html"
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))

    assert "loaded after" not in page("fresh")                                      # the near miss
    (bundle / LATE_FILE).write_text(LATE_CASE, encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", "2026-11-30")
    assert code == 0, err
    text = page("late")
    assert text.count("loaded after") == 1 and SAID in text
    # at the top: with the page's parameters, before the first question
    assert text.index(SAID) < text.index("1. Impoundments by month")
