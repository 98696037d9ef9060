"""read/select.py's Kept (and the frozen Selection) answer Python's deep copy with themselves, so
that pandas' deep copy of a frame's attrs, into every column and frame it hands out, copies
nothing. pandas calls attrs experimental: how and when it copies them may change in any release,
so this test is pinned to the pandas version it was last checked against, and fails on another."""

from __future__ import annotations

import copy

import pandas as pd

from pipeline.read.select import Kept, Selection

# The pandas version read/select.py's Kept was last checked against. On another version: run this
# file's second test, read how that pandas copies `attrs` (NDFrame.__finalize__), then update this.
CHECKED_WITH = "3.1.1"


def test_pandas_is_the_version_selects_attrs_were_checked_against():
    assert pd.__version__ == CHECKED_WITH, (
        f"pandas {pd.__version__}, not {CHECKED_WITH}: check read/select.py Kept (a frame's attrs not "
        "deep-copied into every column) against this pandas, then update CHECKED_WITH")


def test_a_frames_attrs_are_handed_on_as_they_are_not_copied():
    kept, sel = Kept({"model": "monthly_accounts"}), Selection("monthly_accounts", ())
    frame = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
    frame.attrs.update(selection=kept, read=sel)
    for derived in (frame["a"], frame[["a"]], frame.head(1), frame.copy(), frame.sort_values("a")):
        assert derived.attrs["selection"] is kept and derived.attrs["read"] is sel
    assert copy.deepcopy(kept) is kept and copy.deepcopy(kept) == {"model": "monthly_accounts"}
    # a plain dict in attrs is deep-copied (what Kept spares): pandas still copies attrs deeply
    frame.attrs["plain"] = {"x": [1]}
    assert frame["a"].attrs["plain"] == {"x": [1]} and frame["a"].attrs["plain"] is not frame.attrs["plain"]
