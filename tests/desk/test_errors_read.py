"""Errors a clerk can read: an upload the bundle's folder will not take (read-only, or a full disk)
and a defect met serving a request each give the desk's page with one line saying what failed and
what to do, never a bare 500; a refused upload leaves the browser on a GET; a file added takes the
bundle's own permissions. The tests run as root, whom no folder refuses: the file system's refusals
are made by the calls that meet them."""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CSV = (ROOT / "data/sample/ledgers/local_fund.csv").read_bytes()


def add(d, name="local_fund_2026-12.csv", body=CSV):
    return d.post("/add", data={"token": d.token(), "month": "2026-11", "file": (io.BytesIO(body), name)},
                  content_type="multipart/form-data")


@pytest.mark.parametrize(("code", "says"), [
    (errno.EROFS, "the desk may not write into"), (errno.EACCES, "the desk may not write into"),
    (errno.ENOSPC, "is full; free some space"),
])
def test_an_upload_the_folder_will_not_take_is_said_on_the_page(desk_of, monkeypatch, code, says):
    from pipeline.desk import upload

    d = desk_of()
    before = sorted(p.name for p in d.places.bundle.rglob("*"))

    def refuse(*a, **k):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(upload.tempfile, "mkstemp", refuse)
    r = add(d)
    assert r.status_code == 303 and "said=" in r.headers["Location"]      # a reload posts nothing again
    page = d.get(r.headers["Location"])
    assert page.status_code == 200 and says in page.text and "local_fund_2026-12.csv: not saved" in page.text
    assert sorted(p.name for p in d.places.bundle.rglob("*")) == before
    # its twin: the folder takes it
    monkeypatch.undo()
    assert add(d).status_code == 303 and (d.places.bundle / "ledgers" / "local_fund_2026-12.csv").is_file()


def test_a_file_added_takes_the_bundles_permissions(desk_of):
    d = desk_of()
    ledgers = d.places.bundle / "ledgers"
    for mode in (0o750, 0o775):
        ledgers.chmod(mode)
        assert add(d, f"local_fund_{mode:o}.csv").status_code == 303
        kept = stat.S_IMODE((ledgers / f"local_fund_{mode:o}.csv").stat().st_mode)
        assert kept == mode & 0o666, oct(kept)


def test_a_defect_serving_a_request_is_a_page_not_a_bare_500(desk_of, monkeypatch):
    from pipeline.desk import upload

    d = desk_of()

    def broken(*a, **k):
        raise RuntimeError("a defect")

    monkeypatch.setattr(upload, "save", broken)
    r = add(d)
    assert r.status_code == 500 and "<h1>Pound desk</h1>" in r.text
    assert "the desk could not do this (RuntimeError: a defect)" in r.text


def test_a_file_loaded_is_not_replaced_by_an_upload_of_its_name(desk_of):
    d = desk_of()
    r = d.post("/do/load", data={"token": d.token(), "month": "2026-11"})
    assert r.status_code == 303 and d.desk.wait().error is None
    kept = (d.places.bundle / "ledgers" / "dm_deposit.csv").read_bytes()
    r = add(d, "dm_deposit.csv", b"xx")
    page = d.get(r.headers["Location"]).text
    assert "ledgers/dm_deposit.csv has been loaded already" in page and "dm_deposit_corrections.csv" in page
    assert (d.places.bundle / "ledgers" / "dm_deposit.csv").read_bytes() == kept
    # nor by its name in other letters' case, which a file system blind to case takes for the same file
    page = d.get(add(d, "DM_Deposit.CSV", b"xx").headers["Location"]).text
    assert "ledgers/DM_Deposit.CSV has been loaded already" in page
    assert not (d.places.bundle / "ledgers" / "DM_Deposit.CSV").exists()
    # its twin: a file of another name is added
    assert "said=" not in add(d, "dm_deposit_2026-12.csv", kept).headers["Location"]


@pytest.mark.parametrize("month", ["2026-1O", "２０２６-１１", "", "2026-13", "../2026-11"])
def test_a_month_not_written_yyyy_mm_is_refused_and_nothing_runs(desk_of, month):
    d = desk_of()
    for path in ("/do/load", "/show"):
        r = d.post(path, data={"token": d.token(), "month": month})
        assert r.status_code == 400 and "is not a month written YYYY-MM" in r.text, (path, r.status_code)
    assert d.desk.job is None and not d.places.db.exists()


def test_a_scan_too_large_is_refused_on_a_get_of_the_month_it_was_sent_from(desk_of):
    d = desk_of(max_bytes=1024)
    r = d.post("/do/close?month=2026-10", data={"token": d.token("2026-10"), "month": "2026-10", "by": "DM",
                                                "signed": (io.BytesIO(b"%PDF-" + b"x" * 300_000), "scan.pdf")},
               content_type="multipart/form-data")
    assert r.status_code == 303 and "month=2026-10" in r.headers["Location"] and "said=" in r.headers["Location"]
    assert "larger than" in d.get(r.headers["Location"]).text and d.desk.job is None
