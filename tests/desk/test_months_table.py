"""The months table (looked.month_rows): every month the bundle holds and the next one, each with
its state, its figures id and links to its review, its sealed page to sign, its signed scan and its
papers; on the sample after a close and a correction. And the page's one read of the database
(jobs.Desk.read): one hold of its lock, one connection, and a part that cannot be read said so."""

from __future__ import annotations

import io
import re

from test_month_steps import DM, MONTH, correct_a_november_release, ok, pdfs_by_stand_in


def rows_of(page: str) -> dict[str, str]:
    table = page[page.index('<table class="months">'):]
    table = table[:table.index("</table>")]
    out = {}
    for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", table, re.S):
        month = re.search(r">(\d{4}-\d{2})</a>", row).group(1)
        out[month] = re.sub(r"\s+", " ", row)
    return out


def test_the_months_after_a_close_and_a_correction(desk, desk_at, monkeypatch):
    import json

    from pipeline.load.closes import in_force

    pdfs_by_stand_in(monkeypatch)          # the table links the papers' index, not their PDFs
    d = desk
    before = rows_of(d.get(f"/?month={MONTH}").text)
    assert all("not loaded" in r for r in before.values())
    ok(d, "load", MONTH)
    rows = rows_of(d.get(f"/?month={MONTH}").text)
    months = list(rows)
    assert months[-1] == "2026-12" and months[-2] == MONTH and months == sorted(months)   # the next month too
    assert "<td>loaded</td>" in rows[MONTH]
    # reviewed, then closed, with the desk's buttons: the session's offices of these states (desk_at)
    rows = rows_of(desk_at("reviewed").get(f"/?month={MONTH}").text)
    assert "<td>review made</td>" in rows[MONTH] and "/files/2026-11/review/monthly_review_2026-11.html" in rows[MONTH]
    d = desk_at("closed")
    folder = in_force(d.places.bundle, MONTH)[0]
    figures_id = json.loads((folder / "close.json").read_text(encoding="utf-8"))["figures_id"]
    rows = rows_of(d.get(f"/?month={MONTH}").text)
    assert "<td>closed</td>" in rows[MONTH] and figures_id in rows[MONTH]
    assert f"/files/2026-11/close/{folder.name}/monthly_review_2026-11.pdf" in rows[MONTH]   # the page to sign
    assert f"/files/2026-11/close/{folder.name}/monthly_review_2026-11.html" in rows[MONTH]  # the sealed review
    assert "signed scan" not in rows[MONTH]

    r = d.post("/do/close", data={"month": MONTH, "token": d.token(MONTH), "by": DM,
                                  "signed": (io.BytesIO(b"%PDF-1.4\n% the signed page\n"), "scan.pdf")},
               content_type="multipart/form-data")
    assert r.status_code == 303 and d.desk.wait().error is None
    rows = rows_of(d.get(f"/?month={MONTH}").text)
    assert f"/files/2026-11/close/{folder.name}/signed_page.pdf" in rows[MONTH] and "signed scan" in rows[MONTH]
    ok(d, "papers", MONTH)
    assert "/files/2026-11/papers/index.html" in rows_of(d.get(f"/?month={MONTH}").text)[MONTH]
    correct_a_november_release(d.places.bundle)
    ok(d, "load", MONTH)
    ok(d, "review", MONTH)
    rows = rows_of(d.get(f"/?month={MONTH}").text)
    assert "figures moved since the close" in rows[MONTH] and figures_id in rows[MONTH]
    assert "not loaded" not in rows["2026-10"]


def count_opens(monkeypatch) -> dict[str, int]:
    """How many times DuckDB opens a database, and the desk takes its lock, from now on."""
    import duckdb

    from pipeline.desk import jobs

    n = {"opens": 0, "holds": 0}
    connect, holding = duckdb.connect, jobs.holding

    def opening(*a, **kw):
        n["opens"] += 1
        return connect(*a, **kw)

    def held(*a, **kw):
        n["holds"] += 1
        return holding(*a, **kw)

    monkeypatch.setattr(duckdb, "connect", opening)
    monkeypatch.setattr(jobs, "holding", held)
    return n


def test_a_page_reads_the_database_in_one_hold_of_its_lock_over_one_connection(desk_at, monkeypatch):
    # a closed month: its state, the months table (each month's state), the findings waiting and the
    # files loaded are all read; once they took six opens of the file and four holds of its lock
    d = desk_at("closed")
    n = count_opens(monkeypatch)
    page = d.get(f"/?month={MONTH}").text
    assert "<td>closed</td>" in rows_of(page)[MONTH]
    assert "finding(s), open or opened again" in page                   # the findings waiting
    assert '<table class="bundle-files">' in page and "registers/impoundments.csv" in page
    assert n == {"opens": 1, "holds": 1}


def test_its_twin_a_page_of_a_desk_with_no_database_opens_none(desk, monkeypatch):
    n = count_opens(monkeypatch)
    page = desk.get(f"/?month={MONTH}").text
    assert all("not loaded" in r for r in rows_of(page).values())
    assert n == {"opens": 0, "holds": 1}


def test_a_page_of_no_month_named_reads_the_months_with_the_rest(desk_at, monkeypatch):
    # the last month held is chosen from the months read in the same hold (once a hold of its own)
    d = desk_at("reviewed")
    n = count_opens(monkeypatch)
    page = d.get("/").text
    assert f'<option value="{MONTH}" selected>' in page and f"{MONTH}: built, review made" in page
    assert n == {"opens": 1, "holds": 1}


def waiting_said(page: str) -> str:
    section = page[page.index('id="findings-h"'):]
    return re.sub(r"\s+", " ", section[:section.index("</section>")])


def test_a_month_loaded_not_built_has_none_waiting_and_is_not_said_to_be_in_use(desk):
    ok(desk, "load", MONTH)
    page = desk.get(f"/?month={MONTH}").text
    assert "None waiting for a decision in the last build (make the month's review first)" in waiting_said(page)
    assert "<td>loaded</td>" in rows_of(page)[MONTH] and '<table class="bundle-files">' in page


def test_a_part_that_cannot_be_read_leaves_the_others_shown(desk_at):
    # a database whose findings a later version's reader cannot take (a column it adds, gone): the
    # findings waiting are not shown, and the page says why (not "in use"); the month's state, the
    # months table and the files still are, read over the same connection
    import duckdb

    d = desk_at("reviewed")
    con = duckdb.connect(str(d.places.db))
    con.execute("ALTER TABLE deadlines DROP COLUMN by_accounts_date")
    con.close()
    page = d.get(f"/?month={MONTH}").text
    said = waiting_said(page)
    assert "Not shown: the last build was made by an earlier version of pound" in said and "in use" not in said
    assert f"{MONTH}: built, review made" in page
    assert "<td>review made</td>" in rows_of(page)[MONTH]
    assert '<table class="bundle-files">' in page and "registers/impoundments.csv" in page


def test_a_defect_met_reading_a_part_is_said_as_one_not_as_the_database_in_use(desk_at, monkeypatch, capsys):
    # a defect (here planted) reading the months table or the files: that part says the desk could
    # not read it and that its window has the details, and the traceback is there; the rest is shown
    from pipeline.desk import bundlefiles, looked

    d = desk_at("reviewed")

    def broken(*args, **kw):
        raise RuntimeError("planted")

    monkeypatch.setattr(looked, "month_rows", broken)
    monkeypatch.setattr(bundlefiles, "rows", broken)
    page = d.get(f"/?month={MONTH}").text
    for section in ("months", "bundle"):
        said = re.sub(r"\s+", " ", page[page.index(f'<section aria-labelledby="{section}-h"'):])
        said = said[:said.index("</section>")]
        assert "Not shown: the desk could not read it (RuntimeError)" in said and "in use" not in said, section
    assert "RuntimeError: planted" in capsys.readouterr().err
    assert f"{MONTH}: built, review made" in page and "Not shown" not in waiting_said(page)
