"""The planters' declarations: every rule they name is a real rule, reported on the subject they plant,
and every rule that can be planted alone has a planter."""

from pipeline.build import load_rules
from pipeline.synth import PLANTABLE
from pipeline.synth.plants import MODULES, REGISTRY

NOT_PLANTABLE = {"DQ-HEADS-MISMATCH"}      # cannot be planted without also tripping REL-UNAUTHORISED


def test_every_declared_rule_is_a_real_rule_with_the_declared_subject():
    rules = {r.rule_id: r for r in load_rules()}
    assert set(REGISTRY) <= set(rules), sorted(set(REGISTRY) - set(rules))
    wrong = {p.rule_id: (p.subject, rules[p.rule_id].subject) for p in REGISTRY.values()
             if p.subject != rules[p.rule_id].subject}
    assert not wrong


def test_every_rule_but_dq_heads_mismatch_has_a_planter():
    rules = {r.rule_id for r in load_rules()}
    assert set(PLANTABLE) == rules - NOT_PLANTABLE
    assert PLANTABLE == tuple(sorted(REGISTRY))


def test_each_planter_lives_in_a_module_of_its_section_and_says_what_it_does():
    where = {"REL-": "releases", "S13-": "s13", "S14-": "s14", "S15-": "s15", "SALE-": "s15", "S16-": "s16_s17",
             "S17-": "s16_s17", "DQ-": "data_quality", "RATE-": "data_quality",
             "LF-": "ledgers", "DM-": "ledgers", "HEADS-": "s15"}
    names = {m.__name__.rsplit(".", 1)[1] for m in MODULES}
    for p in REGISTRY.values():
        module = next(v for k, v in where.items() if p.rule_id.startswith(k))
        assert module in names and p.module.endswith("." + module), (p.rule_id, p.module)
        assert len(p.how) > 20, p.rule_id
