"""Local helpers for the rule tests: a small set of register rows, built, and its findings.

The rows are typed by the loader's own parser and inserted straight into the register
tables (helpers.insert_rows), on top of the shared reference set unless a test replaces a
reference table; the loading itself is tested in tests/load. The build stops at the findings.

A build costs about 0.3 s whatever the rows, and there are some 300 rule tests, so the
bundles are built together (scenarios.py). Every rule test is declared as data (scenarios.Given:
the rows given, the run's date and parameters, the findings expected): before the first rule test
runs, the bundle of each is read from its parameters, and the bundles that share an as-of date,
parameters and load day are inserted into one database, each bundle's ids marked as its own, and
built once. The `findings` fixture then hands each test the findings of its own ids. A bundle that
replaces a reference table is built alone, as is every bundle when POUND_RULE_TESTS_ALONE=1;
test_rules.py checks that bundles built together give what each gives alone.
"""

from __future__ import annotations

import os

import pytest
from scenarios import HERE, Given, Together, alone, close_alone


@pytest.fixture(scope="session", autouse=True)
def _alone_closed():
    """The databases of bundles built alone (scenarios.alone keeps the last few) closed at the end."""
    yield
    close_alone()


@pytest.fixture(scope="session")
def _together(request):
    """The rule tests' bundles, read once per test process and built together on demand."""
    together = Together()
    if os.environ.get("POUND_RULE_TESTS_ALONE") != "1":
        together.read(request.session.items)
    return together


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
    """The rule tests run in one test process: each process reads the bundles and builds the
    groups its own tests ask for, so rule tests spread over both processes built most groups
    twice (nine builds more of fifty-five)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.xdist_group("rules"))
