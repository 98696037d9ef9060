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

from helpers import case
from rule_rows import S15, SPEC, rel, sale

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
