"""The whole month at the desk, in headless Chromium, on a copy of the sample: load; review;
the review workbook downloaded, two decisions filled in, added and loaded; review again; close;
verify; papers. Each step's page text is checked against what the `pound` commands print for
the same bundle (a second copy), and axe-core checks the page in each state of the month.
DESK_SHOTS=folder keeps a screenshot of each step (docs/img/ holds the README's). The first review and
the close draw and print the real pages; the review made again with the decisions, and the sealed pages
of the commands' own close, are drawn by a stand-in (what they are compared by is not on the pages)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("desk")]
MONTH = "2026-11"
DM = "District Magistrate, Mysuru"
SLOW = 600_000        # ms: the review renders four pages and prints them; the papers print each to PDF


def accessible(page, state: str) -> None:
    from axe import describe, violations

    found = violations(page)
    assert found == [], f"the desk, {state}:\n{describe(found)}"


def shot(page, name: str, at: str | None = None) -> None:
    """The README's picture `name` (docs/img/desk_<name>.png), when DESK_SHOTS names a folder: the
    window's view, scrolled to the element `at`."""
    folder = os.environ.get("DESK_SHOTS")
    if folder:
        if at:
            page.evaluate(f"window.scrollTo(0, document.querySelector({at!r}).getBoundingClientRect().top + window.scrollY - 16)")
        page.screenshot(path=str(Path(folder) / f"desk_{name}.png"), full_page=False)
        page.evaluate("window.scrollTo(0, 0)")


def press(page, button: str, done: str | None = None, working: str | None = None) -> str:
    """Press `button` and wait for the page to show its result; `working` names the picture taken
    while it works."""
    page.get_by_role("button", name=button, exact=True).click()
    if working:
        page.wait_for_selector("text=Working:", timeout=SLOW)
        if os.environ.get("DESK_SHOTS"):           # the picture a moment into the work (no wait for no picture)
            page.wait_for_timeout(2500)
        shot(page, working)
    page.wait_for_selector(f"text=Done: {done or button}", timeout=SLOW)
    return page.inner_text("#progress")


def fill_two_decisions(src: Path, dst: Path) -> list[tuple[str, str]]:
    import openpyxl

    wb = openpyxl.load_workbook(src)
    ws = wb["finding_reviews"]
    header = [c.value for c in ws[1]]
    decided = []
    for i, decision in zip(range(2, ws.max_row + 1), ("explained", "action_ordered"), strict=False):
        ws.cell(i, header.index("reviewed_on") + 1, dt.datetime(2026, 12, 3))
        ws.cell(i, header.index("reviewed_by") + 1, DM)
        ws.cell(i, header.index("decision") + 1, decision)
        ws.cell(i, header.index("note") + 1, "decided at the meeting of 03-12-2026")
        decided.append((ws.cell(i, 1).value, ws.cell(i, 2).value))
    wb.save(dst)
    return decided


def test_the_whole_month_at_the_desk_matches_the_commands(desk_of, browser, run_cli, shared, tmp_path,
                                                           drawn_by_stand_ins):
    from helpers import fake_reports
    from test_decide_on_page import built_copy

    from pipeline.close import seal

    d = desk_of()
    cli_bundle = tmp_path / "cli_bundle"
    cli_db = tmp_path / "cli.duckdb"
    # the commands' first load and build of the sample, as of 30-11-2026 (`pound ingest`, `pound build`),
    # run once a session (test_decide_on_page.sample_built): a copy, and what they printed
    printed = built_copy(shared, run_cli, cli_bundle, cli_db)
    page, requests, errors = browser.open(d.url, charts=False, context_args={"bypass_csp": True, "accept_downloads": True,
                                                                                 "viewport": {"width": 900, "height": 640}})
    assert page.title().startswith("Pound desk, ")
    page.select_option("#month", MONTH)
    page.get_by_role("button", name="Show the month").click()
    assert page.inner_text("#state-h") == f"{MONTH}: not loaded"
    accessible(page, "not loaded")

    # 1. load: the line pound ingest prints
    text = press(page, "Load the registers")
    out = (printed / "ingest.txt").read_text(encoding="utf-8")          # pound ingest's
    assert out.strip().splitlines()[-1] in text
    assert page.inner_text("#state-h") == f"{MONTH}: loaded, not built"
    accessible(page, "loaded, not built")

    # 2. the review: the decisions line pound build prints; the links to the pages, PDF and workbook
    text = press(page, "Make the month's review", working="working")
    out = (printed / "build.txt").read_text(encoding="utf-8")           # pound build's
    assert [ln for ln in out.splitlines() if ln.startswith("decisions on findings")][0] in text
    assert "heads impounded" in text
    for name in (f"monthly_review_{MONTH}.html", f"monthly_review_{MONTH}.pdf", f"review_{MONTH}.xlsx"):
        assert page.locator("#progress").get_by_role("link", name=name, exact=True).count() == 1, name
    state = page.inner_text("#state-h")
    figures_id = re.fullmatch(rf"{MONTH}: built, review made \(figures id (\w+), a draft until the close\)", state).group(1)
    assert f"figures id {figures_id}" in text
    accessible(page, "built, review made")
    # the review's page opened from the desk, as the clerk's browser does (the desk's own
    # Content-Security-Policy in force): its charts are drawn
    href = page.locator("#progress").get_by_role("link", name=f"monthly_review_{MONTH}.html", exact=True).get_attribute("href")
    review_page, _, review_errors = browser.open(d.url.rstrip("/") + href, charts=True)
    assert review_page.locator(".main-svg").count() >= 1 and review_errors == []
    review_page.context.close()
    shot(page, "review", at="#progress")
    assert run_cli("report", "--db", cli_db, "--month", MONTH, "--out", tmp_path / "cli_reports")[0] == 0
    assert figures_id in (tmp_path / "cli_reports" / f"monthly_review_{MONTH}.html").read_text(encoding="utf-8")

    # 3. the decisions: the workbook downloaded, two rows decided, added, loaded, reviewed again
    with page.expect_download() as dl:
        page.locator("#progress").get_by_role("link", name=f"review_{MONTH}.xlsx", exact=True).click()
    got = tmp_path / "downloaded.xlsx"
    dl.value.save_as(got)
    filled = tmp_path / "filled" / f"review_{MONTH}.xlsx"
    filled.parent.mkdir()
    decided = fill_two_decisions(got, filled)
    assert len(decided) == 2
    page.set_input_files("#file", str(filled))
    page.get_by_role("button", name="Add register files").click()
    assert f"added review_{MONTH}.xlsx to registers/" in page.inner_text("#added")
    text = press(page, "Load the registers")
    shutil.copy(filled, cli_bundle / "registers" / filled.name)
    code, out, _ = run_cli("ingest", cli_bundle, "--db", cli_db, "--as-of", "2026-11-30")
    assert code == 0 and out.strip().splitlines()[-1] in text and "loaded 1 file(s)" in text
    assert f"registers/review_{MONTH}.xlsx" in page.inner_text(".state")          # loaded since the build
    assert page.inner_text("#state-h") == f"{MONTH}: decisions loaded, not built"
    accessible(page, "decisions loaded, not built")
    # the review made again, with the decisions: its pages drawn and printed by a stand-in (the desk's
    # conftest.py _stand_ins), for which build it reads and what the page says of it are checked here;
    # the first review above drew and printed the real pages (the sample's three decisions in them), and
    # the close below draws and prints the real pages of this build, sealed
    with drawn_by_stand_ins():
        text = press(page, "Make the month's review")
    code, out, _ = run_cli("build", "--db", cli_db, "--out", tmp_path / "cli_results", "--as-of", "2026-11-30")
    decisions = [ln for ln in out.splitlines() if ln.startswith("decisions on findings")][0]
    assert decisions in text and decisions.startswith("decisions on findings: 5 applied")     # 3 in the sample, 2 here
    # the decisions are in the review just printed (steps.state: "decisions loaded" names decisions
    # loaded after the review last printed)
    assert page.inner_text("#state-h").startswith(f"{MONTH}: built, review made (figures id ")
    accessible(page, "review made with the decisions")
    review_figures = page.inner_text("table.figures")

    # 4. the close: the figures pound close seals, and the page to sign
    page.fill("#by", DM)
    page.fill("#note", "reviewed at the meeting of 03-12-2026")
    text = press(page, "Close the month")
    # pound close on the commands' side draws its sealed pages by a stand-in (helpers.fake_reports, page 1's
    # figures as the real page shows them) and prints those: what is compared here (the figures sealed, the
    # page 1 sealed, pound verify's verdict) is the record's; the desk's close just made drew and printed the
    # real pages, and tests/close/test_close.py's close with the rendered reports verifies them
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(seal, "render_reports", fake_reports)
        code, out, err = run_cli("close", "--db", cli_db, "--month", MONTH, "--by", DM, "--bundle", cli_bundle)
    assert code == 0, err
    sealed = [ln.removeprefix("sealed: ") for ln in err.splitlines() if ln.startswith("sealed: ")]
    assert sealed
    rows = [re.sub(r"\s+", " ", r).strip() for r in page.locator("table.figures tbody tr").all_inner_texts()]
    assert [r.replace("\t", " ") for r in rows] == [s.replace(": ", " ", 1) for s in sealed]
    for s in sealed:                              # the review showed the same page-1 figures
        assert s.split(": ", 1)[1] in review_figures
    assert page.get_by_role("link", name="The page to sign").count() == 1
    # each close has its own figures id (it seals who, when and the note too); the page 1 they seal is the same
    cli_id = re.search(r"^figures id (\w+); the page to sign", err, re.M).group(1)
    desk_close, cli_close = (json.loads((b / "closes" / MONTH / "close.json").read_text(encoding="utf-8"))
                             for b in (d.places.bundle, cli_bundle))
    desk_id = desk_close["figures_id"]
    assert cli_close["figures_id"] == cli_id != desk_id and desk_close["page_one_id"] == cli_close["page_one_id"]
    assert f"figures id {desk_id}" in text and page.inner_text("#state-h") == f"{MONTH}: closed ({MONTH}, figures id {desk_id})"
    accessible(page, "closed")
    shot(page, "closed")

    # 5. verify: pound verify's verdict
    text = press(page, "Verify")
    code, out, _ = run_cli("verify", cli_bundle / "closes" / MONTH, "--bundle", cli_bundle)
    assert code == 0
    assert out.strip().replace(str(cli_bundle / "closes" / MONTH), "") in text.replace(str(d.places.bundle / "closes" / MONTH), "")
    assert "Intact" in text

    # 6. the papers: pound documents' count, and their PDFs
    text = press(page, "Make the papers")
    code, out, _ = run_cli("documents", "--db", cli_db, "--out", tmp_path / "cli_papers", "--from", "2026-11-01",
                           "--to", "2026-11-30")
    wrote = out.splitlines()[0].split(" into ")[0]
    assert code == 0 and wrote in text
    assert page.locator("a", has_text="_all.pdf").count() >= 1
    accessible(page, "papers made")
    shot(page, "papers", at="#progress")

    # nothing from the internet, and no script error
    assert all(u.startswith(d.url) or u.startswith(("data:", "blob:")) for u in requests), requests
    assert errors == []
    # from the keyboard: Tab reaches the month chooser, each field and each button, in the page's
    # order, and the control focused is marked by a visible outline
    page.goto(d.url + f"?month={MONTH}")
    reached = []
    for _ in range(300):                       # past the month's files' links and the findings' forms too
        page.keyboard.press("Tab")
        tag, name, outline, again = page.evaluate(
            "(e => { if (!window.tabbedFirst && e !== document.body) { window.tabbedFirst = e; }"
            " return [e.tagName, e.id || e.textContent.trim(), getComputedStyle(e).outlineStyle"
            " + ' ' + getComputedStyle(e).outlineWidth, e === window.tabbedFirst]; })(document.activeElement)")
        if again and reached:                  # once round the page (each Tab after this one reaches the same again)
            break
        if tag != "BODY" and name not in reached:        # (past the last control, the focus leaves the page)
            reached.append(name)
            assert outline.split()[0] != "none" and float(outline.split()[1].removesuffix("px")) >= 2, (name, outline)
    # (the month is closed: the scan, and reopening with a reason, in place of who signs)
    order = ["month", "show", "Load the registers", "Make the month's review", "signed", "Close the month",
             "Verify", "Make the papers", "reason", "Reopen the month", "file", "Add register files"]
    assert [n for n in reached if n in order] == order, reached


def test_the_page_with_rejects_and_with_a_refusal_is_accessible(desk_of, browser):
    import io

    from test_rejects import bad_workbook

    d = desk_of()
    d.post("/add", data={"token": d.token(), "month": MONTH, "file": (io.BytesIO(bad_workbook()), "keeper_P01.xlsx")},
           content_type="multipart/form-data")
    d.post("/do/load", data={"month": MONTH, "token": d.token()})
    d.desk.wait()
    page, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={"bypass_csp": True})
    assert page.locator("table.rejects tbody tr").count() >= 1
    accessible(page, "a file rejected")
    # a refusal: a file that is no register, added from the page
    page.set_input_files("#file", files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello"}])
    page.get_by_role("button", name="Add register files").click()
    assert "not a register workbook (.xlsx) or CSV file" in page.inner_text("#refused")
    accessible(page, "a file refused")
    assert errors == []
