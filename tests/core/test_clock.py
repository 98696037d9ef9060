"""core/clock.py: the one clock a load and a build are recorded by."""

from __future__ import annotations

import datetime as dt

from pipeline.core.clock import now


def test_the_clock_is_fixed_by_its_variable_and_else_is_the_time_to_the_second(monkeypatch):
    monkeypatch.setenv("POUND_LOAD_TIME", "2026-12-04T10:00:00")
    monkeypatch.delenv("POUND_BUILD_TIME", raising=False)
    assert now("POUND_LOAD_TIME") == dt.datetime(2026, 12, 4, 10, 0, 0)
    before = dt.datetime.now().replace(microsecond=0)
    got = now("POUND_BUILD_TIME")          # the near miss: not fixed, the clock's
    assert got.microsecond == 0 and before <= got <= dt.datetime.now()


def test_a_load_and_a_build_read_their_own_variables(monkeypatch):
    from pipeline.build import record
    from pipeline.load import ingest

    monkeypatch.setenv("POUND_LOAD_TIME", "2026-12-04T10:00:00")
    monkeypatch.setenv("POUND_BUILD_TIME", "2026-12-05T11:00:00")
    assert ingest._now() == dt.datetime(2026, 12, 4, 10) and record._now() == dt.datetime(2026, 12, 5, 11)
