"""A bad workbook added from the browser and loaded: the page's table of rejects names its sheet,
row and column, and the database holds what it held before, compared by content."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bad_workbook() -> bytes:
    """The sample's releases as a keeper's workbook, one release (row 2), new, dated 31/02/2026."""
    import openpyxl

    rows = list(csv.reader((ROOT / "data/sample/registers/releases.csv").open(encoding="utf-8")))
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "releases"
    for r in rows[:3]:
        ws.append(r)
    ws.cell(3, rows[0].index("release_id") + 1, "R-9001")           # a new release, not one already held
    ws.cell(3, rows[0].index("released_on") + 1, "31/02/2026")
    ws.delete_rows(2)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_a_bad_workbook_is_rejected_row_by_row_and_the_database_is_unchanged(desk_of):
    from helpers import snapshot

    from pipeline.load import connection

    d = desk_of()
    assert d.post("/do/load", data={"month": "2026-11", "token": d.token()}).status_code == 303
    assert not d.desk.wait().result.rejected
    con = connection.connect(d.places.db)
    before = snapshot(con)
    con.close()

    r = d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(bad_workbook()), "keeper_P01.xlsx")},
               content_type="multipart/form-data")
    assert r.status_code == 303 and (d.places.bundle / "registers" / "keeper_P01.xlsx").exists()
    assert d.post("/do/load", data={"month": "2026-11", "token": d.token()}).status_code == 303
    d.desk.wait()
    page = d.get("/?month=2026-11").text
    table = re.search(r'<table class="rejects">.*?</table>', page, re.S).group(0)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)]
    assert cells[:3] == ["registers/keeper_P01.xlsx [sheet releases]", "2", "released_on"], cells
    assert "31/02/2026" in cells[3]
    assert "rejected 1" in page and "the database holds what it held before it" in page

    con = connection.connect(d.places.db)
    after = snapshot(con)
    con.close()
    assert after == before
