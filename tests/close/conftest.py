"""Fixtures of the close tests: the golden bundle closed for October and November, and the
reports drawn by a stand-in."""

from __future__ import annotations

import pytest
from helpers import fake_reports

from pipeline.close import seal


@pytest.fixture(scope="module")
def closed(tmp_path_factory, shared):
    """The golden bundle run, and October and November closed."""
    from test_close import fresh

    from pipeline.cli import main

    bundle, db = fresh(shared, tmp_path_factory.mktemp("closed"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(seal, "render_reports", fake_reports)
        for month in ("2026-10", "2026-11"):
            assert main(["close", "--db", str(db), "--month", month, "--by", "DM Dist", "--bundle", str(bundle),
                         "--note", "reviewed in the monthly meeting"]) == 0
    return bundle, db


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(seal, "render_reports", fake_reports)
