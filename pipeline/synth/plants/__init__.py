"""Planted violations: one module per part of the Act, each planter declared with the rule it plants.

PLANTABLE, the rules pound synth plants, is what the planters declare (registry.py),
in rule-id order. Every rule but DQ-HEADS-MISMATCH has a planter (see data_quality.py).
"""

from __future__ import annotations

from pipeline.synth.plants import data_quality, ledgers, releases, s13, s14, s15, s16_s17
from pipeline.synth.plants.registry import REGISTRY, Planter, plants
from pipeline.synth.state import Generator

MODULES = (data_quality, ledgers, releases, s13, s14, s15, s16_s17)
PLANTABLE: tuple[str, ...] = tuple(sorted(REGISTRY))

__all__ = ["MODULES", "PLANTABLE", "REGISTRY", "Planter", "plant", "plants"]


def plant(g: Generator) -> None:
    """Give violation_rate of the cases one violation each, spread evenly over the rules.

    Each rule picks its share at once from the rows it can be planted on (whole arrays,
    no loop over cases), never a case another planted violation already touched.
    """
    total = int(round(g.cfg.violation_rate * len(g.c)))
    g.case_info = g.c.set_index("case_id", drop=False)
    per = {r: total // len(PLANTABLE) + (1 if i < total % len(PLANTABLE) else 0) for i, r in enumerate(PLANTABLE)}
    for rule, k in per.items():
        if k:
            subjects = REGISTRY[rule].plant(g, k)
            g.planted += [(rule, str(x)) for x in subjects]
