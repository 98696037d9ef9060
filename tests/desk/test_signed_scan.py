"""The scan of the signed page sent with "Close the month" for a month already closed: steps.close
keeps it with the close in force (Closed.added) and makes no second close; a file that is no PDF
is refused in one line with nothing kept. The scan sent is not left behind in a temporary file."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

MONTH = "2026-11"


def _sent() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("pound-desk-signed-*"))


def test_a_signed_scan_for_a_closed_month_is_kept_with_its_close_and_no_pdf_is_refused(desk_at):
    d = desk_at("closed")                   # November loaded, reviewed and closed at the desk, no scan sent
    closes = d.places.bundle / "closes"
    folder = closes / MONTH
    assert [p.name for p in closes.iterdir() if p.name != "desk_history.jsonl"] == [MONTH]
    before = _sent()

    def send(body: bytes):
        r = d.post("/do/close", data={"month": MONTH, "token": d.token(), "by": "DM Mysuru",
                                      "signed": (io.BytesIO(body), "scan.pdf")}, content_type="multipart/form-data")
        assert r.status_code == 303
        return d.desk.wait()

    job = send(b"hello, not a scan")
    assert "not a PDF file" in job.error and "\n" not in job.error
    assert not (folder / "signed_page.pdf").exists() and _sent() == before
    # its twin: a PDF is kept with the close in force, and no second close is made
    scan = b"%PDF-1.4\n% the signed page\n"
    job = send(scan)
    assert job.error is None and job.result.result.added == folder / "signed_page.pdf"
    assert (folder / "signed_page.pdf").read_bytes() == scan
    assert [p.name for p in closes.iterdir() if p.name != "desk_history.jsonl"] == [MONTH] and _sent() == before
    assert f"The signed page is kept with the close of {MONTH}" in d.get(f"/?month={MONTH}").text
