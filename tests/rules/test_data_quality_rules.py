"""RATE-MISSING and the data-quality rules.

A firing bundle and its near miss each; the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, expect, order, rel, sale

# ==============================================================================================
# RATE-MISSING and the data-quality rules

@pytest.mark.parametrize("impounded_on, fires", [("2014-05-01", False), ("2014-04-30", True)])
def test_rate_missing(run, impounded_on, fires):
    fs = run(impoundments=[case(impounded_on=impounded_on)],
             releases=[rel(released_on=impounded_on, charges_paid="200")])
    expect(fs, "RATE-MISSING", fires, kind="case", subject="C1", on=impounded_on,
           says=("C1", "cattle", "Plain", "30-04-2014"))


@pytest.mark.parametrize("seized_on, fires", [("2026-10-01", False), ("", False), ("2026-10-02", True)])
def test_dq_seized_after_impounded(run, seized_on, fires):
    fs = run(impoundments=[case(seized_on=seized_on)], releases=[rel()])
    # filed under the impounding day: the finding is about the impoundment row
    expect(fs, "DQ-SEIZED-AFTER-IMPOUNDED", fires, kind="case", subject="C1", on="2026-10-01",
           says=("C1", "seizure on 02-10-2026", "impounding on 01-10-2026"))


@pytest.mark.parametrize("loaded_on, fires", [("2026-11-30", True), ("2026-12-01", False)])
def test_dq_future_date_release_after_its_load_day(run, loaded_on, fires):
    fs = run(impoundments=[case(impounded_on="2026-11-25")],
             releases=[rel(released_on="2026-12-01", charges_paid="1400")], as_of="2026-12-01", loaded_on=loaded_on)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="release", subject="R1", on="2026-12-01",
           says=("R1", "the day its file was loaded, 30-11-2026", "released_on 01-12-2026"))


@pytest.mark.parametrize("bundle_as_of, fires", [("2026-11-30", True), ("2026-12-01", False)])
def test_dq_future_date_after_the_bundles_own_date(run, bundle_as_of, fires):
    fs = run(impoundments=[case(impounded_on="2026-11-25")],
             releases=[rel(released_on="2026-12-01", charges_paid="1400")], as_of="2026-12-01",
             loaded_on="2026-12-05", bundle_as_of=bundle_as_of)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="release", subject="R1", on="2026-12-01",
           says=("R1", "the bundle's own date (bundle.toml) 30-11-2026", "released_on 01-12-2026"))


@pytest.mark.parametrize("as_of", ["2026-11-30", "2026-12-02"])
def test_dq_future_date_is_not_about_the_chosen_as_of(run, as_of):
    # rows after the as-of date are left out of the accounts, not reported as findings
    fs = run(impoundments=[case(seized_on="2026-12-01", impounded_on="2026-12-02")], as_of=as_of,
             loaded_on="2026-12-02")
    expect(fs, "DQ-FUTURE-DATE", False)


@pytest.mark.parametrize("loaded_on, fires", [("2026-11-30", True), ("2026-12-02", False)])
def test_dq_future_date_names_every_future_column(run, loaded_on, fires):
    fs = run(impoundments=[case(seized_on="2026-12-01", impounded_on="2026-12-02")], as_of="2026-12-02",
             loaded_on=loaded_on)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="impoundment", subject="C1", on="2026-12-02",
           says=("C1", "30-11-2026", "seized_on 01-12-2026", "impounded_on 02-12-2026"))


@pytest.mark.parametrize("entry_on, fires", [("2026-11-30", False), ("2026-12-01", True)])
def test_dq_future_date_ledger_entry(run, entry_on, fires):
    fs = run(impoundments=[case()], releases=[rel()], loaded_on="2026-11-30",
             local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": entry_on, "amount": "600",
                          "reference": "C1", "head": "fines"}])
    expect(fs, "DQ-FUTURE-DATE", fires, kind="local_fund_entry", subject="E1", on=entry_on, case_id=None,
           says=("E1", "30-11-2026", "entry_on 01-12-2026"))


def test_dq_future_date_ignores_a_comply_by_deadline_ahead(run):
    fs = run(removal_orders=[order(issued_on="2026-11-01", comply_by="2026-12-15", complied_on="")],
             loaded_on="2026-11-30")
    expect(fs, "DQ-FUTURE-DATE", False)


@pytest.mark.parametrize("head_sold, fires", [(1, False), (2, True)])
def test_dq_heads_mismatch(run, head_sold, fires):
    fs = run(impoundments=[case()], sales=[sale(head_sold=head_sold)], **S15)
    expect(fs, "DQ-HEADS-MISMATCH", fires, kind="case", subject="C1", on="2026-10-18",
           says=("C1", "1 cattle", "2 head", "0 released", "2 sold"))
