import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("POUND_QUIET", "1")
# The tests run pound with the settings a user gets: no $POUND_THREADS (tests/load/test_ingest.py
# tries each of its values).
from shared import LOAD_TIME  # noqa: E402

os.environ.setdefault("POUND_LOAD_TIME", LOAD_TIME)

# A suite started in the background by a shell without job control (`make test &` in a script) has
# Ctrl-C ignored, and every process it starts inherits that: `pound desk` would not stop on the
# Ctrl-C its tests send. A handler of Python's own is reset to the default in a process started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """--dist loadgroup sends the tests of one xdist_group to one worker by suffixing their node
    ids with "@group". pytest-xdist 3.8 writes that suffix to item._nodeid, which pytest 9.2 no
    longer reads (pytest-dev/pytest-xdist#1386): the groups were silently spread over both
    workers. Until xdist writes it where pytest reads it, the suffix is written here."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(names)
        if names and not item.nodeid.endswith(suffix) and isinstance(getattr(item, "_id", None), NodeId):
            item._id = NodeId.parse(item.nodeid + suffix)
