"""The 30 rules of rules.md, one firing bundle and one near miss (at least) each.

Every bundle starts from the reference set of tests/helpers.py: pound P1 in taluk Plain (nothing
notified), pound P2 in taluk Notified (s.13 and s.14 from 2025-01-01); cattle: fine Rs 600,
feeding Rs 200 a day, security Rs 1000 per head; ass: 300 / 100 / 500; sheep 150 / 50 / 250.
D = impounded_on (2026-10-01 unless said), w = 7 (3 for ass and sheep); AS_OF = 2026-11-30.

A firing twin and its near miss differ in as few values as possible, most often one date one
day apart or one amount one paisa apart, so that the pair pins the boundary. Each test asserts
the whole set of findings of its bundle, so that no other rule fires unnoticed.

The tests are in one file per family of rules (test_release_rules.py, test_s15_rules.py,
test_deposit_rules.py, test_sale_and_order_rules.py, test_data_quality_rules.py); the row
builders and the one assertion they share are in rule_rows.py.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, SPEC, rel, sale
from scenarios import Scenario, Together, _unmarked, alone

from pipeline.build import load_rules


def test_rule_files_are_the_30_of_the_spec_with_its_sections_and_severities():
    rules = load_rules()
    assert sorted(r.rule_id for r in rules) == sorted(SPEC)
    assert len(rules) == 30
    for r in rules:
        assert (r.section, r.severity) == SPEC[r.rule_id], r.rule_id
        assert r.subject and r.checks and r.reading, r.rule_id


def test_a_clean_release_and_a_clean_s15_sale_raise_nothing(run):
    assert run(impoundments=[case()], releases=[rel()]) == []
    assert run(impoundments=[case()], sales=[sale()], **S15) == []


# ----------------------------------------------------------------------------------------------
# the bundles of the rule tests are built together (conftest.py, scenarios.py)

def test_two_bundles_with_the_same_ids_built_together_keep_their_own_findings(_template):
    unpaid = Scenario.of(tables={"impoundments": [case()], "releases": [rel(charges_paid="599.99")]})
    paid = Scenario.of(tables={"impoundments": [case()], "releases": [rel()]})
    together = Together()
    together.add(unpaid)
    together.add(paid)
    got = together.findings(unpaid)
    assert [(f["rule_id"], f["subject_id"], f["case_id"]) for f in got] == [("REL-UNPAID", "R1", "C1")]
    assert "Release R1 " in got[0]["detail"] and "Q0" not in got[0]["detail"]
    assert together.findings(paid) == []
    assert together.failed == {}
    assert got == alone(_template, unpaid)


def test_a_finding_of_no_bundle_or_of_two_is_refused():
    assert _unmarked([{"subject_id": "Q001~R1", "detail": "Release Q001~R1"}], 2) == [[], [{"subject_id": "R1", "detail": "Release R1"}]]
    with pytest.raises(ValueError, match="no bundle"):
        _unmarked([{"subject_id": "R1", "detail": ""}], 2)
    with pytest.raises(ValueError, match="another bundle"):
        _unmarked([{"subject_id": "Q001~R1", "detail": "Release Q001~R1 of case Q000~C1"}], 2)


@pytest.mark.slow
def test_bundles_built_together_find_what_each_finds_alone(_together, _template):
    """Every group of the session's bundles is built together without a finding going astray, and a
    fixed twelfth of the bundles (by their digest) find alone exactly what they found together.
    POUND_RULE_TESTS_ALONE=1 builds every bundle alone, for a rule that is being changed."""
    together = [s for members in _together.groups.values() if len(members) > 1 for s in members]
    if len(together) < 50:
        pytest.skip("run with the other rule tests (pytest tests/rules): they record the bundles")
    for group, members in _together.groups.items():
        if len(members) > 1 and group not in _together.built:
            _together.build(group)
    assert _together.failed == {}
    for s in sorted(together, key=Scenario.key)[::12]:
        assert _together.findings(s) == alone(_template, s), s
