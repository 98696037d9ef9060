"""The desk's tests: a desk served on a free loopback port (by the server `pound desk` runs,
in this process), on a copy of a bundle."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, places, **kw):
        from pipeline.desk.app import create_app
        from pipeline.desk.server import Listening

        self.places = places
        self.server = Listening("127.0.0.1", 0)
        self.port = self.server.port
        self.app = create_app(places, port=self.port, **kw)
        self.desk = self.app.extensions["desk"]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._token: str | None = None
        self.thread = threading.Thread(target=self.server.serve, args=(self.app,), daemon=True)
        self.thread.start()

    def client(self):
        return self.app.test_client()

    def get(self, path="/", **kw):
        return self.client().get(path, base_url=f"http://127.0.0.1:{self.port}", **kw)

    def post(self, path, **kw):
        return self.client().post(path, base_url=f"http://127.0.0.1:{self.port}", **kw)

    def token(self, month="2026-11") -> str:
        """A token the desk's page gave (a page of `month` drawn once; the desk keeps the tokens of the
        pages it served last, so the same one serves each form sent after it): drawing the whole page
        again only for a token took seconds a step."""
        if self._token is None:
            self._token = self.page_token(month)
        return self._token

    def page_token(self, month="2026-11") -> str:
        """The token of a page of `month` drawn now (each page drawn gives its own)."""
        return re.search(r'name="token" value="([^"]+)"', self.get(f"/?month={month}").text).group(1)

    def stop(self):
        self.server.stop()
        self.desk.wait()


@pytest.fixture
def desk_of(tmp_path):
    """desk_of(bundle) -> a desk served on a copy of `bundle` (data/sample by default)."""
    from pipeline.desk.actions import Places

    made = []

    def make(bundle: Path = ROOT / "data" / "sample", places: Places | None = None, **kw) -> Served:
        """`places`: where the copy, the database and OUT lie (the bundle copied to places.bundle)."""
        if places is None:
            places = Places(tmp_path / f"bundle{len(made)}", tmp_path / f"desk{len(made)}.duckdb",
                            tmp_path / f"out{len(made)}")
        shutil.copytree(bundle, places.bundle)
        s = Served(places, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()


def _print_stand_ins(pages):
    """A review's stand-in pages "printed": a PDF file named as the real one, beside each."""
    printed = []
    for p in pages:
        p.with_suffix(".pdf").write_bytes(b"%PDF-1.4\n% a stand-in\n")
        printed.append(p.with_suffix(".pdf"))
    return printed


def _stand_ins(monkeypatch, today: bool = True) -> None:
    """The reports drawn by a stand-in (helpers.fake_reports), a review's stand-in pages printed to
    PDF by a stand-in too (the close still prints its page to sign, which verify reads: seal.py's own
    print_reports), and (`today`) today 06-12-2026."""
    from helpers import fake_reports

    from pipeline.close import seal
    from pipeline.documents import pdf
    from pipeline.reports import render

    monkeypatch.setattr(render, "render_reports", lambda db, month, district, out, *a, **k:
                        fake_reports(db, month, district, out))
    monkeypatch.setattr(seal, "render_reports", fake_reports)
    monkeypatch.setattr(pdf, "print_reports", _print_stand_ins)
    if today:
        monkeypatch.setenv("POUND_TODAY", "2026-12-06")


@pytest.fixture
def stand_ins(monkeypatch):
    """The reports drawn by a stand-in and a review's pages printed by one too, on 06-12-2026
    (_stand_ins), for the test's whole run."""
    _stand_ins(monkeypatch)


@pytest.fixture
def drawn_by_stand_ins():
    """A context in which the reports are drawn, and a review's pages printed, by the stand-ins of
    _stand_ins (today left as it is): for one step of a test whose other steps draw the real pages."""
    @contextlib.contextmanager
    def during():
        with pytest.MonkeyPatch.context() as mp:
            _stand_ins(mp, today=False)
            yield

    return during


@pytest.fixture
def desk(desk_of, stand_ins):
    """A desk on a copy of the sample whose reports are drawn by a stand-in (helpers.fake_reports),
    on 06-12-2026: for tests of which month and which build each step reads, not of the pages."""
    return desk_of()


DM = "District Magistrate, Mysuru"
STATES = {"reviewed": ("load", "review"), "closed": ("load", "review", "close")}


def _places(folder: Path):
    from pipeline.desk.actions import Places

    return Places(folder / "bundle0", folder / "desk0.duckdb", folder / "out0")


def _copied(office: Path, folder: Path):
    """The office's places copied into `folder`, its database told where its bundle now lies."""
    from helpers import rebound

    places, there = _places(folder), _places(office)
    shutil.copytree(there.bundle, places.bundle)
    shutil.copyfile(there.db, places.db)
    shutil.copytree(there.out, places.out)
    rebound(places.db, places.bundle)
    return places


def _office_at(shared, folder: Path, state: str) -> None:
    """A desk's office (as `desk` serves it) whose November the desk's own buttons took to `state`:
    "closed" is the "reviewed" office copied, then closed."""
    with pytest.MonkeyPatch.context() as mp:
        _stand_ins(mp)
        todo = STATES[state]
        if state == "closed":
            places = _copied(_office(shared, "reviewed"), folder)
            todo = todo[len(STATES["reviewed"]):]
        else:
            places = _places(folder)
            shutil.copytree(ROOT / "data" / "sample", places.bundle)
        s = Served(places)
        try:
            for action in todo:
                r = s.post(f"/do/{action}", data={"token": s.token("2026-11"), "month": "2026-11", "by": DM},
                           content_type="multipart/form-data")
                assert r.status_code == 303, r.text
                job = s.desk.wait()
                assert job.month == "2026-11" and job.error is None, job.error
        finally:
            s.stop()


def _office(shared, state: str) -> Path:
    return shared.once(f"desk-office-{state}", lambda folder: _office_at(shared, folder, state))


@pytest.fixture
def desk_at(shared, tmp_path, monkeypatch):
    """desk_at(state) -> a desk as `desk` serves it (reports by a stand-in, on 06-12-2026), on a copy of
    an office whose November the desk took to `state` with its buttons: "reviewed" (loaded, its review
    made) or "closed" (and closed by the DM), made once a session (tests/shared.py). For a test that
    starts from that state; a test of the steps that lead to it takes them itself (`desk`)."""
    _stand_ins(monkeypatch)
    made = []

    def make(state: str) -> Served:
        s = Served(_copied(_office(shared, state), tmp_path / f"desk_at{len(made)}"))   # (desk_of's beside it)
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()
