"""How many examples each property test draws: one place for every count.

`make test` draws the full count. `make test-fast`, the quick loop while working, runs the same
tests (all but the browser and notebook ones) and sets POUND_TEST_FAST=1, under which each test
draws about a sixth as many (at least two): the same properties, a shorter search. POUND_EXAMPLES=N
multiplies every full count by N, for a longer search before a release (POUND_EXAMPLES=20 draws
2,000 mutated files in the fuzz test)."""

from __future__ import annotations

import os

FAST = os.environ.get("POUND_TEST_FAST") == "1"
SCALE = int(os.environ.get("POUND_EXAMPLES", "1"))


def examples(full: int) -> int:
    """The number of examples for a test whose full count is `full`."""
    if FAST:
        return max(2, round(full / 6))
    return full * SCALE
