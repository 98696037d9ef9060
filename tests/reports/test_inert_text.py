"""Register text holding HTML or script shows as text in every report and runs nothing, in a real
browser; and a register cell that looks like a formula is text in every workbook."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pipeline.core.registers import BY_NAME
from pipeline.reports.render import REPORTS

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("hostile")]   # one module fixture, one process

SCRIPT = "<script>window.__pwned=1</script>"
PAYLOAD = SCRIPT + '<img src=x onerror="window.__pwned=2"><b>bold</b>'
FORMULA = '=HYPERLINK("http://x","y")'
# the free text of the registers: names, places, notes, buyers (ids, taluks, districts and ledger
# references are matched between files, and keep their values)
POISONED = {
    "local_authorities": ("name",), "officials": ("name",), "pounds": ("name",),
    "impoundments": ("place_of_seizure", "seized_by", "description", "owner_name", "owner_village"),
    "releases": ("released_to",), "sales": ("buyer_name", "disposal_note"), "finding_reviews": ("note",),
}


def _poison(path, columns):
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    header = [h.strip().lower() for h in rows[0]]
    for row in rows[1:]:
        for i, name in enumerate(header):
            if name in columns and i < len(row) and row[i].strip():
                row[i] = row[i] + " " + PAYLOAD if name != "owner_name" else FORMULA
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    from pipeline.cli import main
    from pipeline.steps.review import write_review

    root = tmp_path_factory.mktemp("hostile")
    bundle = root / "bundle"
    shutil.copytree(Path(__file__).resolve().parents[2] / "data" / "sample", bundle)
    for path in bundle.rglob("*.csv"):
        reg = next((r for r in BY_NAME.values() if path.stem.lower().startswith(r.name)), None)
        if reg is not None and reg.name in POISONED:
            _poison(path, POISONED[reg.name])
    assert main(["run", str(bundle), "--out", str(root / "out"), "--as-of", "2026-11-30"]) == 0
    papers = write_review(root / "out" / "pound.duckdb", "2026-10", None, root / "reports")
    return root, papers


def test_no_script_from_the_registers_runs_in_any_report(tabs, hostile):
    _, papers = hostile
    pages = [p for p in papers if p.suffix == ".html"]
    assert len(pages) == len(REPORTS)          # the explore page included
    shown = 0
    for path in pages:
        page, _, errors = tabs.open(path)          # a tab of the session's (reports/conftest.py)
        assert errors == [], errors
        assert page.evaluate("window.__pwned === undefined"), path.name
        # nowhere in the page's source as markup (in a chart's data it is JSON with < written \u003c)
        assert SCRIPT not in path.read_text(encoding="utf-8"), path.name
        assert page.evaluate("document.querySelectorAll('img[onerror]').length") == 0
        assert page.evaluate("[...document.querySelectorAll('b')].every(b => b.textContent !== 'bold')")
        shown += page.inner_text("body").count(SCRIPT)
        # plotly draws register text (pound names) in its svg as text, never as markup
        assert page.evaluate("document.querySelectorAll('svg script, svg foreignObject').length") == 0
        page.close()
    assert shown > 0, "the register text is shown, as text"


def test_every_workbook_keeps_formula_like_text_as_text(hostile):
    root, papers = hostile
    books = [root / "out" / "audit_workbook.xlsx"] + [p for p in papers if p.suffix == ".xlsx"]
    assert len(books) == 2
    for book in books:
        found = 0
        for ws in load_workbook(book).worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str) and cell.value.startswith(("=", "+", "-", "@")):
                        assert cell.data_type == "s", (book.name, ws.title, cell.coordinate, cell.value)
                        found += cell.value == FORMULA
        assert book.name != "audit_workbook.xlsx" or found, "the poisoned owner name is in the audit workbook"
