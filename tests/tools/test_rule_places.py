"""Every rule file is covered in each place a rule touches (docs/guide-developers.md, "Adding a rule").

A rule is one file, pipeline/sql/rules/<RULE-ID>.sql, whose header load_rules() refuses when incomplete
or naming another rule; the build, findings.sql and the reports follow the file by themselves. These are the places that do not: each test
below names, for every rule, the place it is missing from, so that a new rule (or a renamed one)
cannot land half-done. Nothing here counts the rules: the set comes from the rule files.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from pipeline.build import load_rules
from pipeline.core import paths
from pipeline.synth.plants import REGISTRY

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
RULES = {r.rule_id: r for r in load_rules()}

# Subject kinds whose findings go to the pound-keeper under the memo's "everything else"
# (doc_findings_memos.sql names every other kind it routes). A rule reporting a new kind of subject
# must be given an addressee there, or be added here on purpose.
POUND_KEEPER_KINDS = {"case", "release", "deposit"}


def _module(path: Path):
    """A test helper module loaded from its file (tests/rules and tests/synth are not packages)."""
    spec = importlib.util.spec_from_file_location(f"_places_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _missing(covered, what: str) -> None:
    missing = sorted(set(RULES) - set(covered))
    assert not missing, f"{what}: no entry for {', '.join(missing)}"


def test_each_rule_is_a_row_of_the_generated_catalogue():
    """docs/rules.md is written from the headers: python -m pipeline.tools.catalogue."""
    text = (paths.DOCS_DIR / "rules.md").read_text(encoding="utf-8")
    rows = {rule_id for rule_id, r in RULES.items() if f"| `{rule_id}` | {r.section} | {r.severity} |" in text}
    _missing(rows, "docs/rules.md (run: python -m pipeline.tools.catalogue)")


def test_each_rule_may_be_named_by_a_decision_on_findings():
    """The review sheet's rule_id takes the rule ids (core/registers.py reads them from the rule
    files); the written suite must list them: python -m pipeline.load.expectations."""
    suite = json.loads((ROOT / "expectations" / "finding_reviews.json").read_text(encoding="utf-8"))
    allowed = next(e["kwargs"]["value_set"] for e in suite["expectations"]
                   if e["kwargs"].get("column") == "rule_id" and "value_set" in e["kwargs"])
    _missing(allowed, "expectations/finding_reviews.json (run: python -m pipeline.load.expectations)")


def test_each_rule_is_in_the_rule_tests_spec_with_its_section_and_severity():
    rule_rows = _module(TESTS / "rules" / "rule_rows.py")
    _missing(rule_rows.SPEC, "tests/rules/rule_rows.py SPEC")
    wrong = {r: (rule_rows.SPEC[r], (RULES[r].section, RULES[r].severity)) for r in RULES
             if rule_rows.SPEC[r] != (RULES[r].section, RULES[r].severity)}
    assert not wrong, f"tests/rules/rule_rows.py SPEC differs from the headers: {wrong}"
    graded = {p.stem for p in (paths.SQL_DIR / "rules").glob("*.sql")
              if re.search(r"\bAS\s+severity\b", p.read_text(encoding="utf-8"), re.I)}
    assert graded == set(rule_rows.GRADED), "a rule returning its own severity belongs in rule_rows.GRADED"


def declared(test_files) -> dict[str, set]:
    """For each rule id, what the rule tests declared as data expect of it (scenarios.Given in a
    module-level list): True (fires, or named among those that fire `also`), False (stays silent)."""
    import sys
    seen: dict[str, set] = {}
    sys.path.insert(0, str(TESTS / "rules"))
    sys.path.insert(0, str(TESTS))
    try:
        for path in test_files:
            for value in vars(_module(path)).values():
                for given in value if isinstance(value, list | tuple) else ():
                    if type(given).__name__ != "Given":
                        continue
                    expected = given.expected
                    seen.setdefault(expected["rule_id"], set()).add(bool(expected["fires"]))
                    for other in expected.get("also") or ():
                        seen.setdefault(other, set()).add(True)
    finally:
        sys.path.remove(str(TESTS / "rules"))
        sys.path.remove(str(TESTS))
    return seen


def test_each_rule_fires_in_a_test_and_stays_silent_in_its_near_miss():
    files = sorted((TESTS / "rules").glob("test_*.py"))
    seen = declared(files)
    _missing([r for r, v in seen.items() if True in v], "tests/rules/test_*.py, a bundle where it fires")
    _missing([r for r, v in seen.items() if False in v], "tests/rules/test_*.py, a near miss where it is silent")


def test_the_reading_of_the_declared_rule_tests_sees_a_missing_near_miss(tmp_path):
    """Rule tests declared as data are read too, and a declared rule with no silent twin is seen."""
    one = tmp_path / "test_one.py"
    one.write_text("from scenarios import Given\n"
                   "CASES = [Given('short', {}, dict(rule_id='REL-UNPAID', fires=True, also=['REL-UNSIGNED'])),\n"
                   "         Given('paid', {}, dict(rule_id='REL-UNPAID', fires=False))]\n", encoding="utf-8")
    assert declared([one]) == {"REL-UNPAID": {True, False}, "REL-UNSIGNED": {True}}


def test_each_rule_is_planted_by_synth_or_says_why_not():
    """A planter in pipeline/synth/plants/ (@plants), so that planted.csv lists it and
    tests/synth/test_synth_bundle.py finds exactly what was planted; or an entry, with its reason,
    in tests/synth/test_synth_plants.py NOT_PLANTABLE."""
    not_plantable = _module(TESTS / "synth" / "test_synth_plants.py").NOT_PLANTABLE
    _missing(set(REGISTRY) | not_plantable, "a planter in pipeline/synth/plants/ (or NOT_PLANTABLE)")
    assert not (set(REGISTRY) & not_plantable), "a rule is both planted and said to be not plantable"


def _subject_kinds(sql: str) -> set[str]:
    return set(re.findall(r"'([a-z_]+)'\s+AS\s+subject_kind", sql, re.I))


def test_each_rules_findings_have_an_addressee_for_the_memos():
    """doc_findings_memos.sql gives a finding its addressee by the rule's id, or by the subject kind it
    reports (a kind it names, or one that goes to the pound-keeper); and the header's `subject:` is
    a kind the rule reports."""
    memos = (paths.SQL_DIR / "marts" / "doc_findings_memos.sql").read_text(encoding="utf-8")
    routed = set(re.findall(r"subject_kind\s*=\s*'([a-z_]+)'", memos)) | POUND_KEEPER_KINDS
    kinds = {rule_id: _subject_kinds(r.sql) for rule_id, r in RULES.items()}
    unrouted = {r: sorted(k - routed) for r, k in kinds.items() if k - routed and f"'{r}'" not in memos}
    assert not unrouted, f"no memo addressee for these subject kinds (doc_findings_memos.sql): {unrouted}"
    named = {r: (RULES[r].subject, sorted(k)) for r, k in kinds.items() if k and RULES[r].subject not in k}
    assert not named, f"the header's subject is not a kind the rule reports: {named}"


@pytest.mark.parametrize("doc", ["README.md", *sorted(p.relative_to(ROOT).as_posix()
                                                        for p in paths.DOCS_DIR.glob("*.md"))])
def test_the_docs_count_the_rules_there_are(doc):
    """A count of the rules in the README or docs ("N checks", "the N findings") is the number of
    rule files; "s.14 findings" is a section, not a count."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    counts = [(m.group(0), int(m.group(1)))
              for m in re.finditer(r"(?<![\w.(])(\d+) (?:rules|checks|findings)\b", text)]
    wrong = [said for said, n in counts if n != len(RULES)]
    assert not wrong, f"{doc} says {wrong}; there are {len(RULES)} rule files"
