"""The documentation that is generated from code must match it."""

from pipeline.build import load_rules
from pipeline.load import expectations
from pipeline.tools import catalogue


def test_docs_catalogue_matches_the_rule_files_and_parameters():
    assert catalogue.stale() == [], "run: python -m pipeline.tools.catalogue"
    text = (catalogue.DOCS / "rules.md").read_text()
    assert f"{len(load_rules())} rules: " in text
    for rule in load_rules():
        assert f"| `{rule.rule_id}` | {rule.section} | {rule.severity} |" in text


def test_expectation_suites_match_the_register_declarations():
    assert expectations.drifted() == [], "run: python -m pipeline.load.expectations"


def test_every_rule_file_has_a_complete_header():
    rules = load_rules()
    assert rules
    for r in rules:
        assert r.severity in ("high", "medium", "low")
        assert r.checks and r.reading and r.subject and r.section


def test_no_document_types_the_number_of_rules():
    """The count of rules is taken from the rule files (docs/rules.md is generated with it): the README and
    the other docs do not type it, so adding a rule cannot leave a stale number behind."""
    import re

    from pipeline.core import paths

    count = re.compile(r"\b\d+ (?:rules|checks|findings rules)\b")
    texts = {p.name: p.read_text(encoding="utf-8") for p in [paths.DOCS_DIR.parent / "README.md",
                                                            *paths.DOCS_DIR.glob("*.md")] if p.name != "rules.md"}
    assert {name: count.findall(t) for name, t in texts.items() if count.search(t)} == {}
