import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("POUND_QUIET", "1")
from shared import LOAD_TIME  # noqa: E402

os.environ.setdefault("POUND_LOAD_TIME", LOAD_TIME)


@pytest.fixture(scope="session", autouse=True)
def shared(tmp_path_factory):
    """The sample and golden bundles' runs, made once for the session by whichever test process
    asks first (tests/shared.py); with pytest-xdist the workers' folders share a parent."""
    import shared as module

    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    module.SESSION = module.Shared(root, lambda name: tmp_path_factory.mktemp(name))
    yield module.SESSION
    module.SESSION = None


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
