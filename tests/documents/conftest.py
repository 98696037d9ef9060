import shutil
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_AS_OF = "2026-12-31"
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


@pytest.fixture(scope="module")
def golden_db(shared):
    """The golden bundle run to 31-12-2026: its database and exports."""
    return shared.run(GOLDEN / "bundle", GOLDEN_AS_OF)


@pytest.fixture(scope="module")
def sample_papers(shared):
    """The sample's papers as of 30-11-2026, printed (read only)."""
    from pipeline.documents.pdf import DEBIAN_CHROMIUM

    if not DEBIAN_CHROMIUM.exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed")
    db = shared.run(SAMPLE, "2026-11-30") / "pound.duckdb"

    def make(out):
        from shared import quietly

        from pipeline.cli import main

        assert quietly(main, ["documents", "--db", str(db), "--out", str(out), "--pdf"])[0] == 0

    return shared.once("sample-papers-printed", make)
