"""The desk's table of months reads every month's state over one connection (steps.states): each
month's state is the one steps.state reads alone, and the database is opened once, not once a month."""

from __future__ import annotations

import dataclasses

from pipeline import steps
from pipeline.core.months import months_between
from pipeline.steps.state import CLOSED


def test_the_months_read_together_are_each_as_read_alone_over_one_connection(desk_at, monkeypatch):
    from pipeline.load import connection

    places = desk_at("closed").places          # November closed at the desk; the months before it not
    months = months_between("2026-09", "2026-12")
    alone = [steps.state(places.db, m, places.bundle) for m in months]
    stages = [s.stage for s in alone]
    assert stages.count(CLOSED) == 1 and len(set(stages)) > 1, stages

    opened = []
    real = connection.connect
    monkeypatch.setattr(connection, "connect", lambda *a, **k: opened.append(a) or real(*a, **k))
    with steps.states(places.db, places.bundle) as state_of:
        together = [state_of(m) for m in months]
    assert [dataclasses.asdict(s) for s in together] == [dataclasses.asdict(s) for s in alone]
    assert len(opened) == 1, f"the database was opened {len(opened)} times for {len(months)} months"
