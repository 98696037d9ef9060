"""RATE-MISSING and the data-quality rules.

A firing bundle and its near miss each, declared as data (scenarios.Given); the reference set, the
readings and the assertion are described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, expect, order, rel, sale
from scenarios import Given

# ==============================================================================================
# RATE-MISSING and the data-quality rules

RATE_MISSING = [
    Given(name, dict(impoundments=[case(impounded_on=impounded_on)],
                     releases=[rel(released_on=impounded_on, charges_paid="200")]),
          dict(rule_id="RATE-MISSING", fires=fires, kind="case", subject="C1", on=impounded_on,
               says=("C1", "cattle", "Plain", "30-04-2014")))
    for name, impounded_on, fires in (("first-day-of-the-rates", "2014-05-01", False),
                                      ("a-day-before-the-rates", "2014-04-30", True))
]

# filed under the impounding day: the finding is about the impoundment row
DQ_SEIZED_AFTER_IMPOUNDED = [
    Given(name, dict(impoundments=[case(seized_on=seized_on)], releases=[rel()]),
          dict(rule_id="DQ-SEIZED-AFTER-IMPOUNDED", fires=fires, kind="case", subject="C1", on="2026-10-01",
               says=("C1", "seizure on 02-10-2026", "impounding on 01-10-2026")))
    for name, seized_on, fires in (("seized-on-the-impounding-day", "2026-10-01", False),
                                   ("seizure-not-recorded", "", False),
                                   ("seized-a-day-after", "2026-10-02", True))
]

FUTURE_RELEASE = dict(impoundments=[case(impounded_on="2026-11-25")],
                      releases=[rel(released_on="2026-12-01", charges_paid="1400")])
FUTURE_IMPOUNDMENT = dict(impoundments=[case(seized_on="2026-12-01", impounded_on="2026-12-02")])
DQ_FUTURE_DATE = [
    *(Given(f"release-after-its-load-day-{name}", FUTURE_RELEASE,
            dict(rule_id="DQ-FUTURE-DATE", fires=fires, kind="release", subject="R1", on="2026-12-01",
                 says=("R1", "the day its file was loaded, 30-11-2026", "released_on 01-12-2026")),
            as_of="2026-12-01", loaded_on=loaded_on)
      for name, loaded_on, fires in (("loaded-the-day-before", "2026-11-30", True),
                                     ("loaded-the-same-day", "2026-12-01", False))),
    *(Given(f"after-the-bundles-own-date-{name}", FUTURE_RELEASE,
            dict(rule_id="DQ-FUTURE-DATE", fires=fires, kind="release", subject="R1", on="2026-12-01",
                 says=("R1", "the bundle's own date (bundle.toml) 30-11-2026", "released_on 01-12-2026")),
            as_of="2026-12-01", loaded_on="2026-12-05", bundle_as_of=bundle_as_of)
      for name, bundle_as_of, fires in (("dated-the-day-before", "2026-11-30", True),
                                        ("dated-the-same-day", "2026-12-01", False))),
    # rows after the as-of date are left out of the accounts, not reported as findings
    *(Given(f"not-about-the-chosen-as-of-{as_of}", FUTURE_IMPOUNDMENT, dict(rule_id="DQ-FUTURE-DATE", fires=False),
            as_of=as_of, loaded_on="2026-12-02")
      for as_of in ("2026-11-30", "2026-12-02")),
    *(Given(f"names-every-future-column-{name}", FUTURE_IMPOUNDMENT,
            dict(rule_id="DQ-FUTURE-DATE", fires=fires, kind="impoundment", subject="C1", on="2026-12-02",
                 says=("C1", "30-11-2026", "seized_on 01-12-2026", "impounded_on 02-12-2026")),
            as_of="2026-12-02", loaded_on=loaded_on)
      for name, loaded_on, fires in (("loaded-before", "2026-11-30", True), ("loaded-after", "2026-12-02", False))),
    *(Given(f"ledger-entry-{name}",
            dict(impoundments=[case()], releases=[rel()],
                 local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": entry_on, "amount": "600",
                              "reference": "C1", "head": "fines"}]),
            dict(rule_id="DQ-FUTURE-DATE", fires=fires, kind="local_fund_entry", subject="E1", on=entry_on,
                 case_id=None, says=("E1", "30-11-2026", "entry_on 01-12-2026")),
            loaded_on="2026-11-30")
      for name, entry_on, fires in (("on-the-load-day", "2026-11-30", False), ("a-day-after", "2026-12-01", True))),
    Given("ignores-a-comply-by-deadline-ahead",
          dict(removal_orders=[order(issued_on="2026-11-01", comply_by="2026-12-15", complied_on="")]),
          dict(rule_id="DQ-FUTURE-DATE", fires=False), loaded_on="2026-11-30"),
]

DQ_HEADS_MISMATCH = [
    Given(name, dict(impoundments=[case()], sales=[sale(head_sold=head_sold)], **S15),
          dict(rule_id="DQ-HEADS-MISMATCH", fires=fires, kind="case", subject="C1", on="2026-10-18",
               says=("C1", "1 cattle", "2 head", "0 released", "2 sold")))
    for name, head_sold, fires in (("as-many-sold-as-impounded", 1, False), ("more-sold-than-impounded", 2, True))
]


@pytest.mark.parametrize("given", RATE_MISSING + DQ_SEIZED_AFTER_IMPOUNDED + DQ_FUTURE_DATE + DQ_HEADS_MISMATCH,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_data_quality_rules(given, findings):
    expect(findings(given), **given.expected)
