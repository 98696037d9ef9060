import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("POUND_QUIET", "1")
# Files load "on" 01-01-2027 whatever the clock says: the golden bundle holds rows to 31-12-2026, and
# a row dated after its file's load day is a DQ-FUTURE-DATE finding (tests of that rule set their own).
os.environ.setdefault("POUND_LOAD_TIME", "2027-01-01T10:00:00")


@pytest.fixture
def sample_bundle() -> Path:
    return ROOT / "data" / "sample"


@pytest.fixture
def golden_bundle() -> Path:
    return ROOT / "tests" / "golden" / "bundle"


@pytest.fixture
def run_cli(capsys):
    """Run `pound ...` in this process; returns (exit status, stdout, stderr)."""
    from pipeline.cli import main

    def run(*args: str):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:      # argparse's --help and usage errors
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium per test process (playwright's sync API allows one at a time)."""
    import shutil

    from browser import CHROMIUM, Browser

    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")
    b = Browser()
    yield b
    b.close()
