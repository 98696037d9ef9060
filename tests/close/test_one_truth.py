"""One month, one truth (issue 39): a close seals only figures built from every load, the page
signed is the page sealed, verify rebuilds every sealed figure, and a close is the office's.

On the golden bundle (accounts drawn up to 31-12-2026; tests/close/test_close.py tells its
November): a late impoundment G99 (1 head, pound PB, 15-11-2026, no police report) is the file
loaded after the build. Built, it adds to November at PB 1 head impounded and the finding
S15-REPORT-MISSING G99; unbuilt, neither is in the figures.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from test_close import AS_OF, G99, R12_FIX, fake_reports, fresh, read

from pipeline.close import seal


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(seal, "render_reports", fake_reports)


def _late_entry(bundle: Path, run_cli, db: Path) -> None:
    (bundle / "registers" / "impoundments_late.csv").write_text(G99, encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)
    assert code == 0, err


def test_a_close_after_a_load_without_a_build_is_refused_naming_the_file(shared, tmp_path, run_cli, fake):
    bundle, db = fresh(shared, tmp_path)
    _late_entry(bundle, run_cli, db)
    code, out, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "registers/impoundments_late.csv" in err and "run pound build" in err
    assert not (bundle / "closes").exists() or not any((bundle / "closes").iterdir())
    # the near miss: built, the same close is made, and it holds G99
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err
    code, out, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    c = json.loads((bundle / "closes" / "2026-11" / "close.json").read_text(encoding="utf-8"))
    assert ("S15-REPORT-MISSING", "G99") in {(f["rule_id"], f["subject_id"]) for f in c["figures"]["findings"]}
    # the close's figures id seals the whole record (16 hex digits); page 1's own, as a draft shows it, is 8
    assert f"figures id {c['figures_id']}" in err and len(c["figures_id"]) == 16 and len(c["page_one_id"]) == 8
    assert (bundle / "closes" / "2026-11" / "monthly_review_2026-11.pdf").read_bytes()[:5] == b"%PDF-"


def test_readers_warn_of_files_loaded_after_the_figures(shared, tmp_path, run_cli):
    bundle, db = fresh(shared, tmp_path)
    code, _, err = run_cli("export", "--db", db, "--out", tmp_path / "t0", "--format", "csv")
    assert code == 0 and "loaded after the figures" not in err          # the near miss
    _late_entry(bundle, run_cli, db)
    code, _, err = run_cli("export", "--db", db, "--out", tmp_path / "t1", "--format", "csv")
    assert code == 0
    warning = [ln for ln in err.splitlines() if ln.startswith("warning:")]
    assert len(warning) == 1 and "registers/impoundments_late.csv" in warning[0]
    code, _, err = run_cli("documents", "--db", db, "--out", tmp_path / "papers")
    assert code == 0 and "loaded after the figures" in err
    assert "Not up to date" in (tmp_path / "papers" / "index.html").read_text(encoding="utf-8")


def test_verify_calls_a_close_of_stale_figures_altered_and_names_the_figures(shared, tmp_path, run_cli, fake):
    """A close sealed before the build, as a version before this issue let it be made: the build
    record is set by hand to claim the late load, so the close goes through on figures without G99."""
    bundle, db = fresh(shared, tmp_path)
    _late_entry(bundle, run_cli, db)
    con = duckdb.connect(str(db))
    con.execute("UPDATE builds SET last_load_id = (SELECT max(load_id) FROM loads)")
    con.close()
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    code, _, err = run_cli("verify", bundle / "closes" / "2026-11", "--bundle", bundle)
    assert code == 2
    assert "rebuilt figure differs: 2026-11 findings S15-REPORT-MISSING G99: rebuilt, not sealed" in err
    assert "rebuilt figure differs: 2026-11 accounts PB heads_impounded: sealed 0, rebuilt 1" in err
    assert "page 1 heads impounded: sealed 2, rebuilt 3" in err


def test_a_signed_scan_is_sealed_by_its_hash_and_verified(closed, tmp_path, run_cli, fake):
    # November closed by "DM Dist" (conftest.py `closed`: the session's close, copied)
    bundle, db = closed
    folder = bundle / "closes" / "2026-11"
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(b"%PDF-1.4 the signed page\n")
    code, out, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM Dist", "--bundle", bundle,
                             "--signed", scan)
    assert code == 0, err
    assert (folder / "signed_page.pdf").read_bytes() == scan.read_bytes()
    code, out, _ = run_cli("verify", folder)
    assert code == 0 and "intact" in out
    (folder / "signed_page.pdf").write_bytes(b"%PDF-1.4 another page\n")
    code, _, err = run_cli("verify", folder)
    assert code == 2 and "altered: signed_page.pdf" in err
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM Dist", "--bundle", bundle,
                           "--signed", tmp_path / "nothing.pdf")
    assert code == 1 and "no such file" in err


def test_a_moved_office_folder_counts_each_adjustment_once(closed, tmp_path, run_cli, fake):
    """The office folder (bundle and database) closed, copied elsewhere, and a correction loaded
    and built in both: the adjustments of the copy are those of the original, once each. (The office:
    conftest.py `closed`, October and November closed, copied into the test's folder.)"""
    bundle, db = closed
    office = bundle.parent
    assert db == office / "out" / "pound.duckdb"
    moved = tmp_path / "moved"
    shutil.copytree(office, moved)
    results = []
    for root in (office, moved):
        (root / "bundle" / "registers" / "releases_fix.csv").write_text(R12_FIX, encoding="utf-8")
        for args in (("ingest", root / "bundle", "--db", root / "out" / "pound.duckdb", "--as-of", AS_OF),
                     ("build", "--db", root / "out" / "pound.duckdb", "--out", root / "built", "--as-of", AS_OF)):
            code, _, err = run_cli(*args)
            assert code == 0, err
        rows = read(root / "built" / "adjustments.csv")
        results.append(sorted((r["month"], r["pound_id"], r["measure"], r["subject_id"], r["difference"])
                              for r in rows))
    assert results[0] == results[1]
    # R12's correction moves PA's fines in November by Rs 100 (Rs 600 sealed - Rs 500 now), once
    assert [r for r in results[1] if r[2] == "fines_received"] == [("2026-11", "PA", "fines_received", "", "-100.00")]


def test_loading_a_file_a_close_sealed_and_since_changed_says_so(shared, tmp_path, run_cli, fake):
    bundle, db = fresh(shared, tmp_path)
    code, _, err = run_cli("close", "--db", db, "--month", "2026-11", "--by", "DM", "--bundle", bundle)
    assert code == 0, err
    # the near miss: a new file, not one the close sealed, is loaded without the line
    _late_entry(bundle, run_cli, db)
    (bundle / "registers" / "impoundments_late.csv").unlink()
    imp = bundle / "registers" / "impoundments.csv"
    with imp.open("a", encoding="utf-8") as fh:
        fh.write(G99.splitlines()[1].replace("G99", "G98") + "\n")
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "was sealed by the close of" in ln]
    assert said == ["warning: registers/impoundments.csv was sealed by the close of 2026-11 (closes/2026-11) and has "
                    "changed since: its changes count as adjustments to 2026-11 (adjustments.csv after the build)"]
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "built", "--as-of", AS_OF)
    assert code == 0, err
    assert {("PB", "G98")} <= {(r["pound_id"], r["subject_id"]) for r in read(tmp_path / "built" / "adjustments.csv")}


def test_report_keeps_a_review_workbook_with_decisions_and_writes_beside_it(shared, tmp_path, run_cli, monkeypatch):
    from openpyxl import load_workbook

    from pipeline.reports import render

    monkeypatch.setattr(render, "render_reports", lambda db, month, district, out, *a, **k: render.Pages())
    _, db = fresh(shared, tmp_path)
    out = tmp_path / "reports"
    code, _, err = run_cli("report", "--db", db, "--month", "2026-11", "--out", out)
    assert code == 0, err
    sheet = out / "review_2026-11.xlsx"
    # the near miss: a workbook nobody wrote in is written again in its place
    code, _, err = run_cli("report", "--db", db, "--month", "2026-11", "--out", out)
    assert code == 0 and not (out / "review_2026-11_2.xlsx").exists()
    wb = load_workbook(sheet)
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    if ws.max_row < 2:
        ws.append(["R", "S"])
    ws.cell(2, header.index("decision") + 1, "explained")
    wb.save(sheet)
    filled = sheet.read_bytes()
    code, out_text, err = run_cli("report", "--db", db, "--month", "2026-11", "--out", out)
    assert code == 0, err
    assert sheet.read_bytes() == filled
    assert (out / "review_2026-11_2.xlsx").is_file() and str(out / "review_2026-11_2.xlsx") in out_text
    assert "has decisions written in it and is kept as it is" in err


def test_the_state_of_a_month_step_by_step(shared, tmp_path, run_cli, monkeypatch, fake):
    """Built; review made; decisions loaded, not built (the file named); decisions loaded and
    built; closed, with the close's figures id. And a database never made: not loaded."""
    import datetime as dt

    from openpyxl import load_workbook

    from pipeline import steps
    from pipeline.reports import render
    from pipeline.reports.stamp import figures_id
    from pipeline.steps.state import BUILT, CLOSED, DECIDED, DECIDED_UNBUILT, NOT_LOADED, REVIEWED

    monkeypatch.setattr(render, "render_reports", lambda db, month, district, out, *a, **k: render.Pages())
    assert steps.state(tmp_path / "none.duckdb", "2026-11").stage == NOT_LOADED
    bundle, db = fresh(shared, tmp_path)
    assert steps.state(db, "2026-11", bundle).stage == BUILT
    done = steps.review(db, tmp_path / "reports", month="2026-11")
    s = steps.state(db, "2026-11", bundle)
    assert (s.stage, s.printed_figures_id) == (REVIEWED, done.figures_id)
    assert figures_id(done.page_one) == done.figures_id            # page 1 as printed, in the step's result
    wb = load_workbook(done.written[-1])
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    assert ws.max_row >= 2, "the golden month has a finding waiting for a decision"
    ws.cell(2, header.index("reviewed_on") + 1, dt.datetime(2026, 12, 3))
    ws.cell(2, header.index("decision") + 1, "explained")
    wb.save(bundle / "registers" / "review_2026-11.xlsx")
    monkeypatch.setenv("POUND_LOAD_TIME", "2026-12-04T10:00:00")
    steps.load(bundle, db, as_of=dt.date(2026, 12, 31))
    s = steps.state(db, "2026-11", bundle)
    assert s.stage == DECIDED_UNBUILT and s.files_since == ["registers/review_2026-11.xlsx [sheet finding_reviews]"]
    steps.build(db, tmp_path / "out", as_of=dt.date(2026, 12, 31))
    assert steps.state(db, "2026-11", bundle).stage == DECIDED
    closed = steps.close(db, bundle, "2026-11", "DM")
    s = steps.state(db, "2026-11", bundle)
    assert (s.stage, s.figures_id, s.close_folder) == (CLOSED, closed.figures_id, closed.folder)
    assert [f["measure"] for f in done.page_one] == [f["measure"] for f in closed.record["signed"]]


def test_page_headers_and_page_one_say_files_were_loaded_after_their_figures(shared, tmp_path, run_cli):
    from pipeline.read.database import connect
    from pipeline.reports import glance, stamp
    from pipeline.reports.page import parameters_block

    bundle, db = fresh(shared, tmp_path)
    for stale in (False, True):
        if stale:
            _late_entry(bundle, run_cli, db)
        con = connect(db)
        try:
            rows = dict(stamp.rows(con, glance.sealed(con, "2026-11", None), "no: the month has not been closed"))
            header = str(parameters_block(con, db=db, month="2026-11", district=None, report="r"))
        finally:
            con.close()
        assert len(rows["Figures id"]) == 8 and "DRAFT" in rows["Draft"]
        assert ("Out of date" in rows) == stale
        assert ("registers/impoundments_late.csv" in header) == stale
