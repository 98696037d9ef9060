"""The desk hands out only the files the month's steps wrote, by month, kind and name (offered.py):
every other path, however it is encoded, is 404, sent raw over HTTP so that no client tidies it
first. No build: the files are laid out as the steps lay them."""

from __future__ import annotations

import http.client
import json
import os

import pytest

from pipeline.load.closes import FORMAT

MONTH = "2026-11"


def lay_out(d) -> dict:
    """The month's review, papers and a close as the steps write them, and what lies beside them."""
    out, bundle = d.places.out, d.places.bundle
    review = d.places.month(MONTH)
    review.mkdir(parents=True)
    (review / f"monthly_review_{MONTH}.html").write_text("<p>page 1</p>", encoding="utf-8")
    papers = d.places.papers(MONTH)
    papers.mkdir()
    (papers / "index.html").write_text("<p>papers</p>", encoding="utf-8")
    close = bundle / "closes" / MONTH
    close.mkdir(parents=True)
    (close / "close.json").write_text(json.dumps({"format": FORMAT, "month": MONTH, "closed_by": "DM",
                                                  "closed_at": "2026-12-02 10:00:00", "as_of": "2026-11-30"}),
                                      encoding="utf-8")
    (close / f"monthly_review_{MONTH}.pdf").write_bytes(b"%PDF-1.4 the page to sign\n")
    import duckdb

    con = duckdb.connect(str(d.places.db))
    con.execute("CREATE TABLE secret AS SELECT 'the database' AS s")
    con.close()
    (out / "secret.txt").write_text("the office's", encoding="utf-8")
    os.symlink(d.places.db, review / "linked.html")          # a link the steps never write
    return {"db": d.places.db, "reference": bundle / "reference" / "pounds.csv", "beside": out / "secret.txt"}


def raw(d, path: str) -> tuple[int, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", d.port, timeout=10)
    try:
        c.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        c.putheader("Host", f"127.0.0.1:{d.port}")
        c.endheaders()
        r = c.getresponse()
        body = r.read()
        return r.status, body
    finally:
        c.close()


@pytest.fixture
def laid(desk_of, tmp_path):
    """A desk whose bundle lies inside the database's folder (OUT), as an office keeps it."""
    from pipeline.desk.actions import Places

    out = tmp_path / "office"
    s = desk_of(places=Places(out / "mysuru", out / "pound.duckdb", out))
    return s, lay_out(s)


def test_the_files_the_steps_wrote_are_served_wherever_the_bundle_lies(laid):
    d, _ = laid
    assert raw(d, f"/files/{MONTH}/review/monthly_review_{MONTH}.html")[0] == 200
    assert raw(d, f"/files/{MONTH}/papers/index.html")[0] == 200
    # the close's page to sign, with the bundle inside the database's folder
    status, body = raw(d, f"/files/{MONTH}/close/{MONTH}/monthly_review_{MONTH}.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    # and the page links them, on the month's page, with no step run
    page = d.get(f"/?month={MONTH}").text
    assert f"/files/{MONTH}/close/{MONTH}/monthly_review_{MONTH}.pdf" in page
    assert f"/files/{MONTH}/review/monthly_review_{MONTH}.html" in page
    assert "linked.html" not in page


ATTACKS = [
    "/files/{m}/review/..%2f{rel}", "/files/{m}/review/..%2F..%2F{rel}", "/files/{m}/review/%2e%2e/{rel}",
    "/files/{m}/review/%2e%2e%2f%2e%2e%2f{rel}", "/files/{m}/review/..%252f{rel}", "/files/month_{m}/../{rel}",
    "/files/{m}/review/../../{rel}", "/files/{m}/review/..%5c{rel}", "/files/{m}/review/..\\{rel}",
    "/files/{m}/review/{abs}", "/files/{m}/review/%2F{abs}", "/files/{m}/review/linked.html",
    "/files/{m}/review/monthly_review_{m}.html%00", "/files/{m}/review/monthly_review_{m}.html%00.pdf",
    "/files/out/month_2026-10/..%2f{rel}", "/files/{m}/close/{m}/..%2f..%2f..%2f{rel}",
    "/files/{m}/close/..%2f..%2f/{rel}", "/files/{m}/close/%2e%2e/{rel}", "/files/{m}/exports/..%2f..%2f{rel}",
    "/files/..%2f{m}/review/{rel}", "/files/{m}/papers/%2e%2e%2f%2e%2e%2f{rel}", "/{rel}", "/files/{rel}",
]


@pytest.mark.parametrize("target", ["db", "reference", "beside"])
def test_no_other_path_reaches_a_file_however_it_is_encoded(laid, target):
    d, targets = laid
    path = targets[target]
    rel = path.relative_to(d.places.out).as_posix()
    for attack in ATTACKS:
        url = attack.format(m=MONTH, rel=rel, abs=path.as_posix().lstrip("/"))
        status, body = raw(d, url)
        assert status in (404, 400), (url, status)
        assert path.read_bytes() not in body, url


def test_only_what_the_steps_write_is_handed_out_even_in_their_folders(laid, tmp_path):
    d, targets = laid
    review, papers = d.places.month(MONTH), d.places.papers(MONTH)
    (review / "notes.txt").write_text("not the desk's", encoding="utf-8")
    (review / "other_2026-10.html").write_text("another month's", encoding="utf-8")
    import shutil

    shutil.copyfile(targets["db"], papers / "copy.duckdb")
    for url in (f"/files/{MONTH}/review/notes.txt", f"/files/{MONTH}/review/other_2026-10.html",
                f"/files/{MONTH}/papers/copy.duckdb"):
        assert raw(d, url)[0] == 404, url
    page = d.get(f"/?month={MONTH}").text
    assert "notes.txt" not in page and "copy.duckdb" not in page and "other_2026-10" not in page
    # a month's folder made a link to a folder elsewhere: nothing in it is the desk's
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "papers").mkdir(parents=True)
    (elsewhere / "papers" / "index.html").write_text("<p>elsewhere</p>", encoding="utf-8")
    os.symlink(elsewhere, d.places.month("2026-10"))
    assert raw(d, "/files/2026-10/papers/index.html")[0] == 404
    # the near miss: the month's own papers' index
    assert raw(d, f"/files/{MONTH}/papers/index.html")[0] == 200
