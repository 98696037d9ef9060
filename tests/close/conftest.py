"""Fixtures of the close tests: offices closed once a session and copied for each test, and the
reports drawn by a stand-in.

- `closed`: the golden bundle run and October and November closed (tests/close/test_close.py tells
  the figures), made once a session (tests/shared.py, whichever test process asks first) and copied
  into the test's own folder: a test may change its copy as it likes.
- `office`, `closed_office`: the README's month as a district office runs it, data/sample copied to
  mysuru/ and November's `pound month` run (and, for `closed_office`, November closed), made once a
  session and copied; the test works in the copy's folder (tests/helpers.py office_copy).
"""

from __future__ import annotations

import shutil

import pytest
from helpers import fake_reports, office_copy, rebound
from shared import quietly

from pipeline.close import seal


@pytest.fixture(scope="session")
def closed_golden(shared):
    """The golden bundle run and October and November closed (shared: read only)."""
    from test_close import fresh

    from pipeline.cli import main

    def make(folder):
        bundle, db = fresh(shared, folder)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(seal, "render_reports", fake_reports)
            for month in ("2026-10", "2026-11"):
                code, said = quietly(main, ["close", "--db", str(db), "--month", month, "--by", "DM Dist",
                                            "--bundle", str(bundle), "--note", "reviewed in the monthly meeting"])
                assert code == 0, said

    return shared.once("closed-golden", make)


@pytest.fixture
def closed(closed_golden, tmp_path):
    """A copy of the golden bundle closed for October and November: (bundle, database)."""
    root = tmp_path / "closed"
    shutil.copytree(closed_golden, root)
    bundle, db = root / "bundle", root / "out" / "pound.duckdb"
    rebound(db, bundle)
    return bundle, db


@pytest.fixture
def office(shared, tmp_path, monkeypatch):
    """data/sample as mysuru/, November's month run (`pound month`, reports by a stand-in): the
    folder (the test's working folder) and what `pound month` said."""
    return tmp_path, office_copy(shared, tmp_path, monkeypatch, closed=False)


@pytest.fixture
def closed_office(shared, tmp_path, monkeypatch):
    """The office of `office` with November closed (`pound close --by DM`)."""
    return tmp_path, office_copy(shared, tmp_path, monkeypatch, closed=True)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(seal, "render_reports", fake_reports)
