"""pound synth --params: the bundle's accounts follow the readings given, because synth takes its dues,
balances and credits from the build; readings its own timeline is drawn with must stay at their defaults."""

import csv

from pipeline.synth import SynthConfig


def read(path):
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def findings_and_planted(tmp_path, run_cli, params):
    cfg = SynthConfig(pounds=6, months=8, cases_per_month=12, seed=21, violation_rate=0.1, start="2024-03")
    end = cfg.months_span()[1].isoformat()
    bundle = tmp_path / "b"
    code, out, err = run_cli("synth", "--out", bundle, "--pounds", cfg.pounds, "--months", cfg.months,
                             "--cases-per-month", cfg.cases_per_month, "--seed", cfg.seed,
                             "--violation-rate", cfg.violation_rate, "--start", cfg.start, "--params", params)
    assert code == 0, err
    assert f"--params {params}" in out
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", end, "--params", params)
    assert code == 0, err
    found = {(r["rule_id"], r["subject_id"]) for r in read(tmp_path / "out" / "findings.csv")}
    planted = {(r["rule_id"], r["subject_id"]) for r in read(bundle / "planted.csv")}
    return bundle, found, planted


def test_a_bundle_for_other_readings_of_feeding_and_the_waterfall_is_found_exactly(tmp_path, run_cli):
    params = tmp_path / "readings.toml"
    params.write_text('feeding_days = "nights"\nwaterfall_order = ["fines", "security", "feeding", "expenses"]\n')
    bundle, found, planted = findings_and_planted(tmp_path, run_cli, params)
    assert {"S17-BALANCE-MISMATCH", "S17-SHORTFALL-RETURNED", "REL-UNPAID"} <= {r for r, _ in planted}
    missed, extra = planted - found, found - planted
    assert not missed and not extra, f"missed {sorted(missed)[:5]}, extra {sorted(extra)[:5]}"
    readme = (bundle / "README.txt").read_text()
    assert 'feeding_days = "nights"' in readme and 'waterfall_order = ["fines", "security", "feeding", "expenses"]' in readme
    # feeding is charged by nights: a head released the day it came in paid no feeding (a release
    # planted with charges of its own, REL-OVERCHARGED or REL-UNPAID, aside)
    cases = {r["case_id"]: r["impounded_on"] for f in (bundle / "registers").glob("impoundments_*.csv") for r in read(f)}
    same_day = [r for f in (bundle / "registers").glob("releases_*.csv") for r in read(f)
                if r["basis"] == "s12_payment" and r["released_on"] == cases[r["case_id"]]
                and not {r["release_id"], r["case_id"]} & {s for _, s in planted}]
    assert same_day and {r["charges_paid"] for r in same_day} == {"0.00"}


def test_a_reading_of_the_timeline_cannot_be_changed(tmp_path, run_cli):
    params = tmp_path / "readings.toml"
    params.write_text("report_grace = 1\nwaterfall_order = [\"fines\", \"feeding\", \"expenses\", \"security\"]\n")
    code, _, err = run_cli("synth", "--out", tmp_path / "b", "--params", params)
    assert code == 1 and "report_grace" in err and "waterfall_order" in err
    assert not (tmp_path / "b").exists()
