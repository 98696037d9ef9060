"""A file is written whole in one way (core/whole.py): into a partial file beside it, then renamed."""

from __future__ import annotations

import re

import pytest

from pipeline.core.paths import PACKAGE_DIR
from pipeline.core.whole import write_whole, written_whole


def test_a_file_written_whole_or_left_as_it_was(tmp_path):
    path = tmp_path / "a.txt"
    write_whole(path, "one")
    assert path.read_text() == "one"
    with pytest.raises(RuntimeError), written_whole(path) as partial:
        partial.write_text("half")
        raise RuntimeError("killed half way")
    assert path.read_text() == "one"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
    write_whole(path, b"two")
    assert path.read_bytes() == b"two"


# a folder renamed whole (a close, a staged set) is not a file written whole; the desk keeps its own
ALLOWED = {"core/whole.py", "core/staged.py", "close/seal.py", "desk/upload.py"}


def test_no_module_writes_its_own_partial_file():
    own = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        name = path.relative_to(PACKAGE_DIR).as_posix()
        text = path.read_text(encoding="utf-8")
        if name not in ALLOWED and re.search(r"\.part(ial)?\b[\"']", text):
            own.append(name)
    assert own == []
