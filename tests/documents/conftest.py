from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_AS_OF = "2026-12-31"


@pytest.fixture(scope="module")
def golden_db(shared):
    """The golden bundle run to 31-12-2026: its database and exports."""
    return shared.run(GOLDEN / "bundle", GOLDEN_AS_OF)

