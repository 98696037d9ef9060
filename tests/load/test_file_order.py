"""Files are read in an order that cannot change a figure (issue 39, item 5).

The sample bundle holds one correction, impoundments_2026-11_corrections.csv (M-2608-001's owner
named in full, with a correction_note). Whatever the register files are called, so whatever order
their names sort in, `pound run` gives the same figures: a correction is read after the files that
do not correct, so it always finds the row it corrects. Before, a correction whose name sorted
first (impoundments_a.csv before impoundments_z.csv) was read first, and the original row was then
refused as "already loaded with different values".
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from examples import examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shared import LOAD_TIME

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"
FIGURES = ("monthly_accounts.csv", "case_accounts.csv", "findings.csv", "fund_movements.csv", "reconciliation.csv",
           "adjustments.csv")
AS_OF = "2026-11-30"


def _renamed(into: Path, names: dict[str, str]) -> Path:
    bundle = into / "bundle"
    shutil.copytree(SAMPLE, bundle)
    for old, new in names.items():
        (bundle / "registers" / old).rename(bundle / "registers" / new)
    return bundle


def _figures(run_cli, bundle: Path, out: Path) -> dict[str, str]:
    code, _, err = run_cli("run", bundle, "--out", out, "--as-of", AS_OF)
    assert code == 0, err
    return {name: (out / name).read_text(encoding="utf-8") for name in FIGURES}


def _baseline(shared) -> dict[str, str]:
    """The figures of the sample as it is named: the session's own `pound run` of it (tests/shared.py,
    made once for the session and shared with the other tests that read it)."""
    out = shared.run_folder(SAMPLE, AS_OF)
    return {name: (out / name).read_text(encoding="utf-8") for name in FIGURES}


def _copy(tmp: Path) -> Path:
    shutil.copytree(SAMPLE, tmp / "bundle")
    return tmp / "bundle"


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=-1)       # the correction named to sort first, the file it corrects last
def test_the_names_of_the_files_change_no_figure(run_cli, shared, monkeypatch, seed):
    # loaded on the day the session's run of the sample (the baseline) was loaded, whatever the environment says
    monkeypatch.setenv("POUND_LOAD_TIME", LOAD_TIME)
    files = sorted(p.name for p in (SAMPLE / "registers").glob("impoundments*.csv"))
    assert files == ["impoundments.csv", "impoundments_2026-11_corrections.csv"]
    if seed == -1:
        names = {"impoundments.csv": "impoundments_z.csv", "impoundments_2026-11_corrections.csv": "impoundments_a.csv"}
    else:
        rng = random.Random(seed)
        tokens = rng.sample(["0", "a", "z", "_x", "-2026-12_P01", "_corr", "s"], 2)
        names = {f: f"impoundments{t}.csv" for f, t in zip(files, tokens, strict=True)}
        # the other registers' files get names of their own too (a register's one file, renamed)
        for other in ("releases.csv", "sales.csv", "police_reports.csv"):
            names[other] = other.replace(".csv", rng.choice(["", "_2026-11", "_P01"]) + ".csv")
    with tempfile.TemporaryDirectory() as tmp:
        bundle = _renamed(Path(tmp), names)
        got = _figures(run_cli, bundle, Path(tmp) / "out")
    # the exports name the file each row came from: named back, the figures must be the same
    back = sorted(((f"registers/{new}", f"registers/{old}") for old, new in names.items()), key=lambda p: -len(p[0]))
    for name, text in got.items():
        for new, old in back:
            text = text.replace(new + " ", "\0" + old + " ").replace(new + ",", "\0" + old + ",")
        got[name] = text.replace("\0", "")
    base = _baseline(shared)
    for name in FIGURES:
        assert sorted(got[name].splitlines()) == sorted(base[name].splitlines()), name


def test_two_corrections_of_one_row_in_one_load_are_refused_naming_both_files(run_cli, tmp_path):
    bundle = _copy(tmp_path)
    fix = bundle / "registers" / "impoundments_2026-11_corrections.csv"
    other = fix.read_text(encoding="utf-8").replace("Shivanna K.", "Shivanna Kempegowda")
    (bundle / "registers" / "impoundments_2026-11_corrections_2.csv").write_text(other, encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 2
    line = next(ln for ln in err.splitlines() if "corrected by this file and by" in ln)
    assert "impoundments_2026-11_corrections_2.csv" in line and "registers/impoundments_2026-11_corrections.csv" in line
    # the near miss: the same correction sent twice (same values) is one correction, not two
    (bundle / "registers" / "impoundments_2026-11_corrections_2.csv").write_text(
        fix.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out2", "--as-of", AS_OF)
    assert code == 0, err
