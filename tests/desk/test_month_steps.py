"""Each month's steps at the desk act on the month chosen and read that month's own build: the
review and the papers of a month drawn up to its last day (or to today while it is not over, said
on the page); a closed month shows its sealed review and what moved since, never a new draft;
reopening is on the page. The reports are drawn by a stand-in (helpers.fake_reports): what is
checked here is which month and which build each step reads."""

from __future__ import annotations

import json
import shutil

import pytest

MONTH = "2026-11"
DM = "District Magistrate, Mysuru"




def do(d, action: str, month: str, **fields):
    r = d.post(f"/do/{action}", data={"token": d.token(month), "month": month, **fields},
               content_type="multipart/form-data")
    assert r.status_code == 303, r.text
    job = d.desk.wait()
    assert job.month == month
    return job


def ok(d, action: str, month: str, **fields):
    job = do(d, action, month, **fields)
    assert job.error is None, job.error
    return job.result


def pdfs_by_stand_in(monkeypatch) -> None:
    """The papers' printing to PDF by a stand-in, an empty file beside each page, for a test of which
    papers are made and from which build (the whole month at the desk prints them, and checks their
    PDFs are offered: test_month_in_browser.py)."""
    from pipeline.documents import pdf

    def print_all(groups, out):
        for pages in groups.values():
            for p in pages:
                p.with_suffix(".pdf").write_bytes(b"")
        return [p.with_suffix(".pdf") for pages in groups.values() for p in pages]

    monkeypatch.setattr(pdf, "print_all", print_all)


def built_as_of(d):
    import duckdb

    con = duckdb.connect(str(d.places.db), read_only=True)
    try:
        return con.execute("SELECT as_of FROM builds ORDER BY build_id DESC LIMIT 1").fetchone()[0]
    finally:
        con.close()


def test_the_month_sent_with_a_button_is_the_month_acted_on_and_shown(desk):
    d = desk
    page = d.get(f"/?month={MONTH}").text
    # one form holds the month and every step's button: each sends the month chosen in it
    form = page[page.index('<form method="post" action="/show"'):]
    form = form[:form.index("</form>")]
    assert 'name="month"' in form and all(f'formaction="/do/{a}' in form
                                          for a in ("load", "review", "close", "verify", "papers"))
    assert 'name="month" value=' not in form             # no hidden month of the page drawn
    job = do(d, "load", "2026-10")
    assert job.error is None
    r = d.post("/show", data={"token": d.token(MONTH), "month": "2026-10"})
    assert r.status_code == 303 and r.headers["Location"].endswith("month=2026-10")
    shown = d.get("/?month=2026-10").text
    assert "The steps of 2026-10" in shown and "Done: Load the registers (2026-10)" in shown
    # its twin: the page of another month does not show October's result as its own
    other = d.get(f"/?month={MONTH}").text
    assert "Show 2026-10 and what it did" in other and "The steps of 2026-11" in other


def test_a_month_not_over_is_reviewed_to_today_and_says_so(desk):
    from markupsafe import escape

    from pipeline.reports.stamp import figures_id

    d = desk
    ok(d, "load", "2026-12")
    r = ok(d, "review", "2026-12")
    assert built_as_of(d).isoformat() == "2026-12-06"
    assert any(line.startswith("2026-12 is not over: its accounts are drawn up to today, 06-12-2026") for line in r.lines)
    assert "2026-12 is not over" in d.get("/?month=2026-12").text
    # its twin: November is over, and says nothing of the kind
    r = ok(d, "review", MONTH)
    assert built_as_of(d).isoformat() == "2026-11-30"
    assert not any("is not over" in line for line in r.lines)
    page = d.get(f"/?month={MONTH}").text
    assert "is not over" not in page
    # page 1's figures are the step's own, as the review printed them
    assert r.result.page_one and figures_id(r.result.page_one) == r.result.figures_id
    assert all(f'<th scope="row">{escape(f["label"])}</th><td class="num">{escape(f["text"])}</td>' in page
               for f in r.result.page_one)


def test_papers_are_made_from_their_months_own_build(desk_at, monkeypatch):
    from pipeline import steps
    from pipeline.steps import build

    pdfs_by_stand_in(monkeypatch)          # which build the papers are made from is told by their HTML
    d = desk_at("reviewed")                 # November loaded and reviewed at the desk: built as of 30-11
    alone = ok(d, "papers", MONTH)
    assert isinstance(alone.result, steps.Papers)
    assert built_as_of(d).isoformat() == "2026-11-30"
    # December's review leaves a build as of 06-12 in the database
    build(d.places.db, d.places.out / "dec", as_of=__import__("datetime").date(2026, 12, 6))
    after = ok(d, "papers", MONTH)
    assert built_as_of(d).isoformat() == "2026-11-30"
    assert after.lines[0] == ("built the accounts as of 30-11-2026 for 2026-11 first: the database was last built "
                              "as of 06-12-2026")
    assert after.result.count == alone.result.count == 8                # a memo to the DM's accounts section (R21) and a security receipt among them
    index = (d.places.papers(MONTH) / "index.html").read_text(encoding="utf-8")
    assert "30-11-2026" in index and "06-12-2026" not in index
    # its twin: made again with the month's build in place, nothing is built
    again = ok(d, "papers", MONTH)
    assert again.lines == [] and again.result.count == 8


def correct_a_november_release(bundle) -> None:
    """R-0015's fines, Rs 700.00 in the register, corrected to Rs 500.00 (as guide-office.md shows)."""
    (bundle / "registers" / "releases_2026-11_corrections.csv").write_text(
        "release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
        "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n"
        "R-0015,N-2611-024,22/11/2026,1,s12_payment,Puttaswamy (owner),500.00,600.00,,yes,D-203,yes,,"
        "receipt book shows Rs 500\n", encoding="utf-8")


def test_a_closed_month_shows_its_sealed_review_and_what_moved_and_is_reopened_on_the_page(desk_at):
    from pipeline import steps

    d = desk_at("reviewed")                 # November loaded and reviewed at the desk
    # December reviewed since: the close builds November's own accounts first
    ok(d, "review", "2026-12")
    closed = ok(d, "close", MONTH, by=DM)
    assert isinstance(closed.result, steps.Closed)
    assert closed.lines[0].startswith("built the accounts as of 30-11-2026 for 2026-11 first")
    closed = closed.result
    assert json.loads((closed.folder / "close.json").read_text(encoding="utf-8"))["as_of"] == "2026-11-30"
    drafts = {p.name: p.read_bytes() for p in d.places.month(MONTH).iterdir() if p.is_file()}

    # the review of a closed month is the sealed one: no new draft, nothing moved yet
    sealed = ok(d, "review", MONTH)
    assert sealed.folder == closed.folder and sealed.moved == []
    assert {link.text for link in sealed.links} >= {f"monthly_review_{MONTH}.html", f"monthly_review_{MONTH}.pdf"}
    assert {p.name: p.read_bytes() for p in d.places.month(MONTH).iterdir() if p.is_file()} == drafts
    assert "No figure has moved since the close" in d.get(f"/?month={MONTH}").text

    # a correction loaded: the month reads closed, with what moved and why
    verified = ok(d, "verify", MONTH)
    assert isinstance(verified.result, steps.Verified)
    assert verified.result.intact and verified.lines == []
    correct_a_november_release(d.places.bundle)
    ok(d, "load", MONTH)
    assert "files were loaded since the last build" in d.get(f"/?month={MONTH}").text
    sealed = ok(d, "review", MONTH)
    fines = [m for m in sealed.moved if m.measure == "fines_received"]
    assert fines and fines[0].difference == "-200.00" and "releases_2026-11_corrections.csv" in fines[0].causes
    page = d.get(f"/?month={MONTH}").text
    assert "figure(s) moved since the close" in page and "fines_received" in page
    assert {p.name: p.read_bytes() for p in d.places.month(MONTH).iterdir() if p.is_file()} == drafts
    verified = ok(d, "verify", MONTH)
    assert any("the close is as it was sealed, but " in line and "have moved since it" in line
               for line in verified.lines)

    # closing it again is refused until it is reopened, with a reason
    refused = do(d, "close", MONTH, by=DM)
    assert "reopen it first" in refused.error
    assert "say why" in do(d, "reopen", MONTH, reason="  ").error
    ok(d, "reopen", MONTH, reason="fines of R-0015 corrected")
    assert "reopened (fines of R-0015 corrected)" in d.get(f"/?month={MONTH}").text
    draft = ok(d, "review", MONTH)
    assert isinstance(draft.result, steps.Reviewed) and draft.result.figures_id
    again = ok(d, "close", MONTH, by=DM).result
    record = json.loads((again.folder / "close.json").read_text(encoding="utf-8"))
    assert again.folder.name == f"{MONTH}_r2" and record["reopen"] == "fines of R-0015 corrected"
    assert (closed.folder / "close.json").is_file()              # both closes kept
    # (the month's state; "reopened" is also a decision the findings' form offers, and in the history)
    page = d.get(f"/?month={MONTH}").text
    assert "reopened" not in page[page.index('id="state-h"'):page.index("</h2>", page.index('id="state-h"'))]
    assert ok(d, "review", MONTH).folder == again.folder


def test_reopening_a_month_not_closed_is_refused(desk_at):
    d = desk_at("reviewed")                 # November loaded and reviewed at the desk, not closed
    job = do(d, "reopen", MONTH, reason="a correction")
    assert "has not been closed" in job.error
    assert not any(p.name.endswith(".reopened.json") for p in (d.places.bundle / "closes").glob("*")) \
        if (d.places.bundle / "closes").is_dir() else True


def test_a_month_still_running_cannot_be_closed(desk):
    d = desk
    ok(d, "load", "2026-12")
    job = do(d, "close", "2026-12", by=DM)
    assert "2026-12 is not over" in job.error
    assert not (d.places.bundle / "closes").is_dir() or not any(p.name != "desk_history.jsonl"      # the desk's history
                                                                for p in (d.places.bundle / "closes").iterdir())


def test_a_copied_bundle_keeps_its_reopening_to_itself(desk_at, tmp_path):
    """The reopening is a file of the bundle: a copy of the office folder carries it, the database does not."""
    from pipeline.load import reopens

    d = desk_at("closed")                   # November loaded, reviewed and closed at the desk
    ok(d, "reopen", MONTH, reason="a correction")
    copy = tmp_path / "copy"
    shutil.copytree(d.places.bundle, copy)
    assert reopens.pending(copy, MONTH)["reason"] == "a correction"
    reopens.clear(d.places.bundle, MONTH)
    assert reopens.pending(d.places.bundle, MONTH) is None and reopens.pending(copy, MONTH) is not None


@pytest.mark.browser
@pytest.mark.xdist_group("desk")
def test_in_chromium_the_month_chosen_is_the_month_reviewed(desk_at, browser):
    """Choosing 2026-10 shows it at once; "Make the month's review" then makes October's."""
    d = desk_at("reviewed")                 # the registers loaded (and November reviewed) at the desk
    page, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={"bypass_csp": True})
    assert page.inner_text("#state-h").startswith(f"{MONTH}: ")
    page.select_option("#month", "2026-10")                  # no "Show the month" pressed
    page.wait_for_url("**month=2026-10**")
    assert page.inner_text("#state-h").startswith("2026-10: ")
    page.get_by_role("button", name="Make the month's review", exact=True).click()
    page.wait_for_selector("text=Done: Make the month's review (2026-10)", timeout=120_000)
    assert page.inner_text("#state-h").startswith("2026-10: built, review made")
    assert d.desk.job.month == "2026-10" and built_as_of(d).isoformat() == "2026-10-31"
    links = page.locator("#progress a").all_inner_texts()
    assert "monthly_review_2026-10.html" in links and not any("2026-11" in t for t in links)
    assert errors == []
    page.context.close()


def test_a_month_closed_for_one_district_is_not_closed_over_at_the_desk(desk_at):
    from pipeline import steps

    d = desk_at("reviewed")                 # November loaded and reviewed at the desk
    steps.close(d.places.db, d.places.bundle, MONTH, DM, district="Mysuru")
    page = d.get(f"/?month={MONTH}").text
    assert "was closed for district Mysuru" in page
    job = do(d, "close", MONTH, by=DM)
    assert "the desk closes every district at once" in job.error
    assert sorted(p.name for p in (d.places.bundle / "closes").iterdir()) == [f"{MONTH}_Mysuru", "desk_history.jsonl"]
