"""The rules of rules.md and of the second and third readings, one firing bundle and one near miss (at least) each.

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
from examples import examples
from helpers import case
from rule_rows import S15, SPEC, rel, sale
from scenarios import Given, Scenario, Together, _unmarked, alone

from pipeline.build import load_rules


def test_rule_files_are_those_of_the_spec_with_its_sections_and_severities():
    rules = load_rules()
    assert sorted(r.rule_id for r in rules) == sorted(SPEC)
    for r in rules:
        assert (r.section, r.severity) == SPEC[r.rule_id], r.rule_id
        assert r.subject and r.checks and r.reading, r.rule_id


CLEAN = [Given("a-clean-release", dict(impoundments=[case()], releases=[rel()]),
               dict(rule_id="REL-UNPAID", fires=False)),
         Given("a-clean-s15-sale", dict(impoundments=[case()], sales=[sale()], **S15),
               dict(rule_id="S15-SALE-EARLY", fires=False))]


@pytest.mark.parametrize("given", CLEAN, ids=str)
def test_a_clean_release_and_a_clean_s15_sale_raise_nothing(given, findings):
    assert findings(given) == []


# ----------------------------------------------------------------------------------------------
# the bundles of the rule tests are built together (conftest.py, scenarios.py)

def test_two_bundles_with_the_same_ids_built_together_keep_their_own_findings():
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
    assert got == alone(unpaid)


def test_an_id_with_spaces_around_it_is_marked_as_the_loader_reads_it():
    """The loader trims an id: " C1" is case C1, and a blank-looking " " is no id at all."""
    spaced = Scenario.of(tables={"impoundments": [case(case_id=" C1")],
                                 "releases": [rel(case_id=" C1", charges_paid="599.99", security_deposit_id=" ")]})
    other = Scenario.of(tables={"impoundments": [case()], "releases": [rel()]})
    together = Together()
    together.add(spaced)
    together.add(other)
    got = together.findings(spaced)
    assert [f["rule_id"] for f in got] == ["REL-UNPAID"] and got == alone(spaced)


def test_a_finding_of_no_bundle_or_of_two_is_refused():
    assert _unmarked([{"subject_id": "Q001~R1", "detail": "Release Q001~R1"}], 2) == [[], [{"subject_id": "R1", "detail": "Release R1"}]]
    with pytest.raises(ValueError, match="no bundle"):
        _unmarked([{"subject_id": "R1", "detail": ""}], 2)
    with pytest.raises(ValueError, match="another bundle"):
        _unmarked([{"subject_id": "Q001~R1", "detail": "Release Q001~R1 of case Q000~C1"}], 2)


def _sql_digest() -> str:
    import hashlib

    from pipeline.core.paths import SQL_DIR

    h = hashlib.sha256()
    for path in sorted(SQL_DIR.rglob("*.sql")):
        h.update(path.read_bytes())
    return h.hexdigest()


def _in_order(found: list[dict]) -> list[str]:
    return sorted(repr(sorted(f.items())) for f in found)


def test_bundles_built_together_find_what_each_finds_alone(_together):
    """Every group of the session's bundles is built together without a finding going astray, and a
    twelfth of the bundles (a sixth of that in make test-fast: tests/examples.py) find alone exactly
    what they found together, every column. Which twelfth follows the SQL of the models and rules:
    the same for a given tree, another after any change to them, so that changes to the rules meet
    different bundles. A finding missing from a bundle built
    together is seen only here; POUND_RULE_TESTS_ALONE=1 builds every bundle alone (after a change
    to how a rule joins, see docs/design.md)."""
    import hashlib

    together = [s for members in _together.groups.values() if len(members) > 1 for s in members]
    if len(together) < 50:
        pytest.skip("run with the other rule tests (pytest tests/rules): they declare the bundles")
    for group, members in _together.groups.items():
        if len(members) > 1 and group not in _together.built:
            _together.build(group)
    assert _together.failed == {}
    sql = _sql_digest()
    shuffled = sorted(together, key=lambda s: hashlib.sha256((sql + s.key()).encode()).hexdigest())
    chosen = shuffled[:examples(len(shuffled) // 12)]         # a sixth of that in make test-fast
    for s in chosen:
        assert _in_order(_together.findings(s)) == _in_order(alone(s)), s
