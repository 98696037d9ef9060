from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_AS_OF = "2026-12-31"


@pytest.fixture(scope="module")
def golden_db(tmp_path_factory):
    """The golden bundle run to 31-12-2026: its database and exports."""
    from pipeline.cli import main

    out = tmp_path_factory.mktemp("golden_docs")
    assert main(["run", str(GOLDEN / "bundle"), "--out", str(out), "--as-of", GOLDEN_AS_OF]) == 0
    return out

