"""Files in the bundle (bundlefiles.py): each register and ledger file with its state (loaded,
rejected with its reasons, not loaded yet), added when and by whom; a file not yet loaded removed
from the page, a loaded one refused; three files added at once in Chromium, with the progress
while they go up; every removal and upload in the month's history."""

from __future__ import annotations

import io
import re

import pytest

MONTH = "2026-11"
GOOD = ("release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
        "declaration_made,security_deposit_id,receipt_signed,court_order_ref\n")


def rows_of(page: str) -> dict[str, str]:
    table = page[page.index('<table class="bundle-files">'):]
    table = table[:table.index("</table>")]
    return {m.group(1): re.sub(r"\s+", " ", m.group(2)) for m in
            re.finditer(r'<tr><th scope="row"><code>([^<]+)</code></th>(.*?)</tr>', table, re.S)}


def test_states_removal_and_the_history(desk_of):
    d = desk_of()
    sent = [(io.BytesIO(GOOD.encode()), "releases_2026-12.csv"), (io.BytesIO(b"sale_id\nS-1\n"), "sales_2026-12.csv"),
            (io.BytesIO(b"hello"), "notes.txt")]
    r = d.post("/add", data={"token": d.token(), "month": MONTH, "file": sent}, content_type="multipart/form-data")
    assert r.status_code == 303
    page = d.get(r.headers["Location"]).text
    assert "added releases_2026-12.csv to registers/; added sales_2026-12.csv to registers/" in page
    assert "notes.txt: not a register workbook (.xlsx) or CSV file" in page          # refused beside the others
    rows = rows_of(page)
    assert "not loaded yet" in rows["registers/releases_2026-12.csv"] and "office" in rows["registers/releases_2026-12.csv"]
    assert "not added at the desk" in rows["registers/impoundments.csv"]
    assert d.post("/do/load", data={"token": d.token(), "month": MONTH}).status_code == 303
    d.desk.wait()
    rows = rows_of(d.get(f"/?month={MONTH}").text)
    assert "<td>loaded" in rows["registers/impoundments.csv"] and "a correction replaces it" in rows["registers/impoundments.csv"]
    assert "rejected" in rows["registers/sales_2026-12.csv"] and "the header lacks the column(s)" in rows["registers/sales_2026-12.csv"]
    assert "Remove" in rows["registers/sales_2026-12.csv"] and "Remove" not in rows["registers/impoundments.csv"]

    # a file not loaded is removed; a loaded one, or one climbing out of its folder, is refused
    r = d.post("/remove", data={"token": d.token(), "month": MONTH, "file": "registers/sales_2026-12.csv"})
    assert r.status_code == 303 and not (d.places.bundle / "registers" / "sales_2026-12.csv").exists()
    for given, said in (("registers/impoundments.csv", "has been loaded and cannot be removed"),
                        ("registers/../bundle.toml", "is not a file of the bundle"),
                        ("reference/pounds.csv", "choose a file of registers/ or ledgers/"),
                        ("registers/nothing.csv", "is not in the bundle")):
        r = d.post("/remove", data={"token": d.token(), "month": MONTH, "file": given})
        assert r.status_code == 303 and said in d.get(r.headers["Location"]).text, given
    assert (d.places.bundle / "registers" / "impoundments.csv").exists()
    assert d.post("/remove", data={"token": "forged", "month": MONTH, "file": "registers/releases_2026-12.csv"}).status_code == 403
    assert (d.places.bundle / "registers" / "releases_2026-12.csv").exists()

    # the month's history: each upload, the load, each file refused, the removal, with who did it
    page = d.get(f"/?month={MONTH}").text
    history = page[page.index('id="history-h"'):]
    what = re.findall(r"<td>(?:office)</td>\s*<td>([^<]+)", history)
    assert [w.strip() for w in what] == ["upload", "upload", "Load the registers", "rejected", "remove"]


@pytest.mark.browser
@pytest.mark.xdist_group("desk")
def test_three_files_added_at_once_in_chromium(desk_of, browser, tmp_path):
    from test_month_in_browser import accessible

    d = desk_of()
    page, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={"bypass_csp": True})
    accessible(page, "files in the bundle")
    files = [{"name": f"releases_2026-12{s}.csv", "mimeType": "text/csv", "buffer": GOOD.encode()} for s in ("", "_b", "_c")]
    page.set_input_files("#file", files=files)
    page.get_by_role("button", name="Add register files").click()
    page.wait_for_selector("#added", timeout=30_000)
    assert page.inner_text("#added").count("added releases_2026-12") == 3
    assert page.locator("table.bundle-files tbody tr", has_text="releases_2026-12").filter(has_text="not loaded yet").count() == 3
    accessible(page, "three files added")
    assert errors == []
