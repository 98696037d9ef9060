"""make bench's one-month split: the files a pound sends at the end of a month, cut from a bundle."""

from __future__ import annotations

import csv
from pathlib import Path

from pipeline.tools.bench import SAMPLE, rejected_sample, split_month


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_split_month_moves_exactly_that_months_rows(tmp_path, run_cli):
    bundle, before, month = tmp_path / "synth", tmp_path / "before", tmp_path / "month"
    code, _, err = run_cli("synth", "--out", bundle, "--pounds", 2, "--months", 3, "--cases-per-month", 6,
                           "--seed", 3, "--start", "2025-10")
    assert code == 0, err
    moved = split_month(bundle, before, month, "2025-12")
    assert moved > 0
    sent = sorted(month.rglob("*.csv"))
    assert sum(len(_rows(p)) for p in sent) == moved
    for part in sent:
        original = bundle / part.parent.name / (part.stem.removesuffix("_2025-12") + ".csv")
        rest = before / part.parent.name / original.name
        kept, out, whole = _rows(rest), _rows(part), _rows(original)
        assert len(kept) + len(out) == len(whole)
        assert sorted(map(str, kept + out)) == sorted(map(str, whole))   # nothing lost, nothing changed
        dates = [c for c in whole[0] if c.endswith("_on")]
        assert all(any(r[c].startswith("2025-12") for c in dates) for r in out)
    # a register with no row in the month keeps its file whole and sends none
    assert not (month / "reference").exists()


def test_the_rejected_sample_differs_by_one_cell(tmp_path):
    bad = rejected_sample(tmp_path / "bad")
    new, old = _rows(bad / "registers" / "releases.csv"), _rows(SAMPLE / "registers" / "releases.csv")
    changed = [(c, a[c], b[c]) for a, b in zip(old, new, strict=True) for c in a if a[c] != b[c]]
    assert changed == [("fines_paid", old[0]["fines_paid"], "six hundred")]


def test_help_says_what_the_bench_does_and_touches_nothing(tmp_path, monkeypatch, capsys):
    from pipeline.tools import bench

    monkeypatch.setattr(bench, "main", lambda: (_ for _ in ()).throw(AssertionError("the bench ran")))
    assert bench.cli(["--help"]) == 0
    out = capsys.readouterr().out
    assert "make bench" in out and "BENCH_SCALE=small" in out and "bench-out" in out
    assert bench.cli(["--fast"]) == 2
    assert "no option '--fast'" in capsys.readouterr().err
