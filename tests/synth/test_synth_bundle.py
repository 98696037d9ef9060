"""pound synth: deterministic, valid, realistic, and its planted violations are exactly what
pound run finds (recall and precision both 1.0)."""

import csv
import hashlib

import pytest

from pipeline.synth import PLANTABLE, SynthConfig, write_bundle


def digest(folder):
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def synth(tmp_path, name, **kw):
    cfg = SynthConfig(start="2024-03", **kw)
    out = tmp_path / name
    write_bundle(out, cfg)
    end = cfg.months_span()[1]
    return out, end


def read(path):
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("seed, pounds, months, cpm, rate", [
    (1, 6, 6, 10, 0.1),
    (7, 12, 12, 12, 0.04),
    (11, 3, 4, 6, 0.3),
])
def test_run_finds_exactly_what_was_planted(tmp_path, run_cli, seed, pounds, months, cpm, rate):
    bundle, end = synth(tmp_path, "b", pounds=pounds, months=months, cases_per_month=cpm, seed=seed,
                        violation_rate=rate)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", end.isoformat())
    assert code == 0, err
    found = {(r["rule_id"], r["subject_id"]) for r in read(tmp_path / "out" / "findings.csv")}
    planted = {(r["rule_id"], r["subject_id"]) for r in read(bundle / "planted.csv")}
    assert planted, "nothing was planted"
    missed, extra = planted - found, found - planted
    assert not missed and not extra, f"missed {sorted(missed)[:5]}, extra {sorted(extra)[:5]}"


def test_at_the_default_size_at_least_25_rules_are_planted(tmp_path):
    bundle, _ = synth(tmp_path, "b", seed=3)
    rules = {r["rule_id"] for r in read(bundle / "planted.csv")}
    assert len(rules) >= 25 and rules <= set(PLANTABLE)
    # the two rules of money that never arrived (R16, R17), planted with the ledgers
    assert {"LF-CREDIT-OVERDUE", "DM-RECEIPT-OVERDUE"} <= rules


def test_a_clean_bundle_has_no_findings(tmp_path, run_cli):
    bundle, end = synth(tmp_path, "b", pounds=8, months=10, cases_per_month=15, seed=5, violation_rate=0)
    assert read(bundle / "planted.csv") == []
    assert run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", end.isoformat())[0] == 0
    assert read(tmp_path / "out" / "findings.csv") == []


def test_same_seed_same_bytes_other_seed_other_data(tmp_path):
    a, _ = synth(tmp_path, "a", pounds=5, months=4, cases_per_month=8, seed=42)
    b, _ = synth(tmp_path, "b", pounds=5, months=4, cases_per_month=8, seed=42)
    c, _ = synth(tmp_path, "c", pounds=5, months=4, cases_per_month=8, seed=43)
    assert digest(a) == digest(b)
    assert digest(a) != digest(c)
    assert (a / "registers" / "impoundments_2024.csv").read_bytes() != (c / "registers" / "impoundments_2024.csv").read_bytes()


def test_the_data_looks_like_the_sources(tmp_path):
    bundle, _ = synth(tmp_path, "b", pounds=20, months=12, cases_per_month=20, seed=9, violation_rate=0)
    cases = read(bundle / "registers" / "impoundments_2024.csv") + read(bundle / "registers" / "impoundments_2025.csv")
    heads = [int(r["head_count"]) for r in cases]
    assert sum(h <= 3 for h in heads) / len(heads) > 0.8 and max(heads) > 8          # mostly small herds, a few large
    rates = read(bundle / "reference" / "rates.csv")
    cattle = {(r["taluk"], r["effective_from"]): r for r in rates if r["animal_class"] == "cattle"}
    star = [r for (t, _), r in cattle.items() if t == "*"]
    assert {r["fine_per_head"] for r in star} == {"600.00"}                           # Rs 600 since May 2014
    assert {r["feeding_per_head_per_day"] for r in star} == {"200.00", "250.00"}     # revised part-way
    assert {r["fine_per_head"] for r in rates if r["animal_class"] == "calf"} == {"300.00"}
    pounds = read(bundle / "reference" / "pounds.csv")
    unclaimed = {}
    sales = read(bundle / "registers" / "sales.csv")
    sold_cases = {r["case_id"] for r in sales if r["path"] == "s15_unclaimed"}
    by_pound = {}
    for r in cases:
        by_pound.setdefault(r["pound_id"], []).append(r["case_id"] in sold_cases)
    unclaimed = {p: sum(v) / len(v) for p, v in by_pound.items()}
    assert 0.02 < min(unclaimed.values()) and max(unclaimed.values()) < 0.4 and len(pounds) == 20
    months = {}
    for r in cases:
        months[r["impounded_on"][5:7]] = months.get(r["impounded_on"][5:7], 0) + 1
    assert months["08"] > months["02"]                                                # the monsoon peak
    notes = read(bundle / "reference" / "notifications.csv")
    assert {n["section"] for n in notes} == {"13", "14"}
    prices = [int(float(r["bid_amount"])) // int(r["head_sold"]) for r in sales
              if r["accepted"] == "yes" and r["head_sold"] != "0"]
    assert 1000 < sorted(prices)[len(prices) // 2] < 20000


def test_synth_refuses_a_folder_that_is_not_empty(tmp_path, run_cli):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.txt").write_text("mine")
    code, _, err = run_cli("synth", "--out", tmp_path / "x")
    assert code == 1 and "is not empty" in err
