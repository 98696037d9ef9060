"""Local helpers for the rule tests: a small set of register rows, built, and its findings.

The rows are typed by the loader's own parser and inserted straight into the register
tables (helpers.insert_rows), on top of the shared reference set unless a test replaces a
reference table; the loading itself is tested in tests/load. The build stops at the findings.

A build costs about 0.3 s whatever the rows, and there are some 180 rule tests, so the
bundles are built together (scenarios.py): before the first rule test runs, the bundle of every
rule test declared as data (scenarios.Given: the rows given, the findings expected) is read from
its parameters, and every other rule test is called once with a `run` that only records its rows, and the recorded bundles that share
an as-of date, parameters and load day are inserted into one database, each bundle's ids
marked as its own, and built once. `run` then hands each test the findings of its own ids.
A bundle that was not recorded, or that replaces a reference table, is built alone, as is
every bundle when POUND_RULE_TESTS_ALONE=1; test_rules.py checks that bundles built together
give what each gives alone.
"""

from __future__ import annotations

import os

import pytest
from helpers import AS_OF
from scenarios import HERE, Given, Scenario, Together, alone, close_alone


@pytest.fixture(scope="session", autouse=True)
def _alone_closed():
    """The databases of bundles built alone (scenarios.alone keeps the last few) closed at the end."""
    yield
    close_alone()


@pytest.fixture(scope="session")
def _together(request):
    """The rule tests' bundles, recorded once per test process and built together on demand."""
    together = Together()
    if os.environ.get("POUND_RULE_TESTS_ALONE") != "1":
        together.record(request.session.items)
    return together


@pytest.fixture
def run(_together, request):
    """run(as_of=..., params={...}, **tables) -> list of finding dicts (every column of `findings`).

    tables: register name -> list of row dicts (text, as a clerk writes them); a reference name
    (e.g. notifications=[...]) replaces that reference table. loaded_on, bundle_as_of: the day
    every row was loaded (default: as_of, so that no test hangs on the real clock) and the
    bundle's own date (default: none).
    """

    why = _together.unrecorded.get(request.node.nodeid)
    if why is not None:
        pytest.fail(f"the rule-test harness could not record this test's bundle (scenarios.py): {why}")

    def _run(as_of=AS_OF, params: dict | None = None, loaded_on=None, bundle_as_of=None, **tables) -> list[dict]:
        s = Scenario.of(as_of, params, loaded_on, bundle_as_of, tables)
        found = _together.findings(s)
        if found is not None:
            return found
        if _together.recorded and s.shares_the_reference() and s.key() not in _together.keys:
            pytest.fail("the rule-test harness did not see this bundle when it recorded the tests (scenarios.py): "
                        "a test's later call of run must not depend on what an earlier call found")
        return alone(s)

    return _run


@pytest.fixture
def findings(_together):
    """findings(given) -> the findings of a rule test declared with Given (scenarios.py): its bundle,
    read from the test's parameters before any rule test runs, built with its group (or alone)."""

    def _findings(given: Given) -> list[dict]:
        s = given.scenario()
        found = _together.findings(s)
        return found if found is not None else alone(s)

    return _findings


def pytest_collection_modifyitems(items):
    """The rule tests run in one test process: each process records the bundles and builds the
    groups its own tests ask for, so rule tests spread over both processes built most groups
    twice (nine builds more of fifty-five)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.xdist_group("rules"))
