"""The District Magistrate decides on the page (decide.py): two findings decided in Chromium leave
the same finding_reviews rows and the same findings as the same two decisions written in the review
workbook and loaded, on a copy of the same bundle; a decision dated after today is refused beside
its row while the others are recorded; a finding not waiting, or a decision the register does not
allow, is refused; axe-core finds no violation on the page with its findings and with a refusal."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MONTH = "2026-11"
NOTE = "decided at the meeting of 03-12-2026"
REGISTER_COLUMNS = "rule_id, subject_id, reviewed_on, reviewed_by, decision, note, finding_detail, correction_note, void"


def built(run_cli, bundle: Path, db: Path, out: Path) -> None:
    assert run_cli("ingest", bundle, "--db", db, "--as-of", "2026-11-30")[0] == 0
    code, _, err = run_cli("build", "--db", db, "--out", out, "--as-of", "2026-11-30")
    assert code == 0, err


def sample_built(shared, run_cli) -> Path:
    """A folder holding bundle/ (a copy of the sample) and pound.duckdb, the copy loaded and built by
    `built` (what `pound ingest` and `pound build` printed in ingest.txt and build.txt); made once a
    session (tests/shared.py; read only): each test that starts from the sample built takes a copy
    (built_copy) in place of loading and building it again."""
    def make(folder: Path) -> None:
        shutil.copytree(ROOT / "data" / "sample", folder / "bundle")
        db = folder / "pound.duckdb"
        code, out, err = run_cli("ingest", folder / "bundle", "--db", db, "--as-of", "2026-11-30")
        assert code == 0, err
        (folder / "ingest.txt").write_text(out, encoding="utf-8")
        code, out, err = run_cli("build", "--db", db, "--out", folder / "out", "--as-of", "2026-11-30")
        assert code == 0, err
        (folder / "build.txt").write_text(out, encoding="utf-8")

    return shared.once("desk-decide-sample-built", make)


def built_copy(shared, run_cli, bundle: Path, db: Path) -> Path:
    """`built(run_cli, bundle, db, ...)` for `bundle`, a copy of the sample: the session's database of
    the sample built (sample_built) copied to `db` and told where its bundle now lies; the session's
    folder (what the commands printed)."""
    from helpers import rebound

    made = sample_built(shared, run_cli)
    if not bundle.exists():
        shutil.copytree(made / "bundle", bundle)
    shutil.copyfile(made / "pound.duckdb", db)
    rebound(db, bundle)
    return made


def tables(db: Path):
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        reviews = con.execute(f"SELECT {REGISTER_COLUMNS} FROM finding_reviews ORDER BY ALL").fetchall()
        findings = con.execute("SELECT * FROM findings ORDER BY ALL").fetchall()
    finally:
        con.close()
    return reviews, findings


def by_workbook(shared, run_cli, tmp_path) -> tuple[Path, list[tuple[str, str]]]:
    """The same two decisions through the review workbook, on a copy of the sample."""
    from test_month_in_browser import fill_two_decisions

    from pipeline.outputs.review_sheet import write_review_workbook
    from pipeline.read.database import connect

    bundle, db = tmp_path / "wb_bundle", tmp_path / "wb.duckdb"
    built_copy(shared, run_cli, bundle, db)            # the sample copied, loaded and built
    con = connect(db)
    try:
        write_review_workbook(con, MONTH, None, tmp_path / "review.xlsx")
    finally:
        con.close()
    decided = fill_two_decisions(tmp_path / "review.xlsx", bundle / "registers" / f"review_{MONTH}.xlsx")
    built(run_cli, bundle, db, tmp_path / "wb_out")
    return db, decided


@pytest.mark.browser
@pytest.mark.xdist_group("desk")
def test_two_decisions_on_the_page_equal_the_same_in_the_workbook(desk_of, browser, run_cli, shared, tmp_path):
    from test_month_in_browser import accessible, shot

    d = desk_of()
    built_copy(shared, run_cli, d.places.bundle, d.places.db)
    page, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={
        "bypass_csp": True, "viewport": {"width": 1100, "height": 720}, "locale": "en-IN"})
    rows = page.locator("table.decide tbody tr")
    assert rows.count() >= 3
    accessible(page, "the findings waiting")
    decided = []
    for i, decision, day in ((1, "explained", "2026-12-03"), (2, "action_ordered", "2026-12-03"),
                             (3, "accepted", (dt.date.today() + dt.timedelta(days=2)).isoformat())):
        page.select_option(f"#decision-{i}", decision)
        page.fill(f"#decided-on-{i}", day)
        page.fill(f"#note-{i}", NOTE)
        decided.append(rows.nth(i - 1).locator("th").inner_text().strip())
    shot(page, "decide", at="#findings")          # the README's picture, with DESK_SHOTS=docs/img
    page.get_by_role("button", name="Record the decisions").click()
    page.wait_for_selector("text=Done: Record the decisions", timeout=120_000)
    assert "2 decision(s) recorded" in page.inner_text("#progress")
    # the refusal beside its row, the decision and day as typed kept in it; the two recorded are waiting no more
    assert "is after today" in page.inner_text("#refused-3")
    refused_row = page.locator("table.decide tbody tr.refused-row")
    assert refused_row.count() == 1 and refused_row.locator("th").inner_text().strip() == decided[2]
    assert refused_row.locator("select").input_value() == "accepted"
    accessible(page, "a decision refused beside its row")
    assert errors == []
    written = list((d.places.bundle / "registers").glob(f"finding_reviews_{MONTH}_desk_*.xlsx"))
    assert len(written) == 1

    built(run_cli, d.places.bundle, d.places.db, tmp_path / "desk_out")
    wb_db, wb_decided = by_workbook(shared, run_cli, tmp_path)
    assert [s for _, s in wb_decided] == decided[:2]
    assert tables(d.places.db) == tables(wb_db)


def test_refusals_beside_their_rows_and_the_others_recorded(desk_of, run_cli, shared):
    """Through the form's own fields (no browser): a finding not waiting, a decision not allowed,
    a day after today, a day missing; the one good row is recorded and loaded."""
    from pipeline.desk import decide

    d = desk_of()
    built_copy(shared, run_cli, d.places.bundle, d.places.db)
    waiting = decide.waiting(d.places, MONTH)
    first, second = waiting[0], waiting[1]
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    form = {"token": d.token(), "month": MONTH,
            "rule_id": [first.rule_id, second.rule_id, "R-NOT-A-RULE", first.rule_id, second.rule_id],
            "subject_id": [first.subject_id, second.subject_id, "X-1", first.subject_id, second.subject_id],
            "decision": ["explained", "dismissed", "explained", "accepted", "referred"],
            "decided_on": ["2026-12-01", "2026-12-01", "2026-12-01", "2026-12-01", tomorrow],
            "note": ["", "", "", "", ""]}
    assert d.post("/do/decide", data=form).status_code == 303
    job = d.desk.wait()
    assert job.error is None, job.error
    why = [a.refused for a in job.result.refused]
    assert job.result.recorded == 1 and len(why) == 4
    assert "is not a decision the review allows" in why[0] and "not waiting" in why[1]
    assert "decided twice" in why[2] and "is after today" in why[3]
    page = d.get(f"/?month={MONTH}").text
    assert "is not a decision the review allows" in page
    # the finding decided is waiting no more for the page (decided since the build), though the
    # build still counts it until the review is made again
    assert next(w for w in decide.waiting(d.places, MONTH) if w.subject_id == first.subject_id).since == "explained"
    # a form whose rows do not line up is refused whole, and nothing is written
    bad = dict(form, token=d.token(), note=[""])
    r = d.post("/do/decide", data=bad)
    assert r.status_code == 303 and "said=" in r.headers["Location"]
    assert len(list((d.places.bundle / "registers").glob("finding_reviews_*_desk_*.xlsx"))) == 1
    # a forged post without the page's token changes nothing
    assert d.post("/do/decide", data=dict(form, token="forged")).status_code == 403


@pytest.mark.parametrize("note", ['=HYPERLINK("http://example.org","open")', "decided at the meeting"])
def test_a_note_is_written_as_words_never_as_a_formula(desk_of, run_cli, shared, note):
    """The decisions file is a workbook whose note is a text cell: a note beginning with "=" stays the
    words typed, in the spreadsheet the office opens and in the register loaded (its twin, a plain note,
    is written and loaded the same way)."""
    import zipfile

    import duckdb

    from pipeline.desk import decide

    d = desk_of()
    built_copy(shared, run_cli, d.places.bundle, d.places.db)
    first = decide.waiting(d.places, MONTH)[0]
    form = {"token": d.token(), "month": MONTH, "rule_id": [first.rule_id], "subject_id": [first.subject_id],
            "decision": ["explained"], "decided_on": ["2026-12-01"], "note": [note]}
    assert d.post("/do/decide", data=form).status_code == 303
    job = d.desk.wait()
    assert job.error is None and job.result.recorded == 1, job.error
    [written] = (d.places.bundle / "registers").glob(f"finding_reviews_{MONTH}_desk_*.xlsx")
    with zipfile.ZipFile(written) as z:
        sheet = z.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in sheet and 't="inlineStr"' in sheet
    con = duckdb.connect(str(d.places.db), read_only=True)
    try:
        kept = con.execute("SELECT note FROM finding_reviews WHERE subject_id = ?", [first.subject_id]).fetchall()
    finally:
        con.close()
    assert (note,) in kept
