"""One start of LibreOffice Calc for every Calc test of a test process (fixture `calc`).

calc_invalid.py --serve starts Calc once and answers requests one a line: which cells Calc's own
validity check marks (test_template_checks), and `soffice --convert-to` done by the Calc already
started (a workbook worked out and saved as xlsx, printed to PDF, each sheet written as CSV). Each
request opens its files afresh and closes them, as a start of its own would; a start of Calc costs
about as much CPU as the conversions of a module, and five modules started it six times.

The fixture is the session's, so each pytest-xdist worker that runs a Calc test starts its own Calc
(its own pipe, named by calc_invalid.py's process id, and its own profile): two at most, never
shared between processes. A Calc that died is started again for the next request."""

from __future__ import annotations

import pytest
from calc_served import Calc, calc_ready


@pytest.fixture(scope="session")
def calc(tmp_path_factory):
    """This test process's Calc (started at its first request, stopped at the session's end)."""
    assert calc_ready(), "LibreOffice Calc and python3-uno are needed: run `make calc`"
    served = Calc(tmp_path_factory.mktemp("calc"))
    yield served
    served.close()


def pytest_collection_modifyitems(items):
    """The tests that open Calc run in one test process (xdist_group "calc"): one start of Calc for the
    suite, not one per process, and each module's fixtures (a keeper's two Novembers worked out by Calc,
    the printed workbooks) made once, not once in each process that runs one of its tests."""
    for item in items:
        if item.get_closest_marker("calc"):
            groups = {m.args[0] if m.args else m.kwargs.get("name") for m in item.iter_markers("xdist_group")}
            assert groups <= {"calc"}, f"{item.nodeid} opens Calc but is in xdist_group {groups}: tests/conftest.py " \
                                       "would join the names, and the test would start a Calc of its own"
            item.add_marker(pytest.mark.xdist_group("calc"))
