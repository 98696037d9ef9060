"""bundle.toml: the bundle's own date, district and preparer; malformed is one clear line."""

import datetime as dt

import pytest
from helpers import case, make_bundle

from pipeline.core.errors import InputRejected
from pipeline.load.bundle_toml import BundleInfo, bundle_toml, read_bundle_info


def _info(tmp_path, text):
    (tmp_path / "bundle.toml").write_text(text, encoding="utf-8")
    return read_bundle_info(tmp_path)


def test_none_without_a_file(tmp_path):
    assert read_bundle_info(tmp_path) is None


@pytest.mark.parametrize("text", ['as_of = 2026-10-31\ndistrict = "Mysuru"\nprepared_by = " R. Gowda "\n',
                                  'as_of = "2026-10-31"\ndistrict = "Mysuru"\nprepared_by = "R. Gowda"\n'])
def test_read_with_the_date_bare_or_quoted(tmp_path, text):
    assert _info(tmp_path, text) == BundleInfo(dt.date(2026, 10, 31), "Mysuru", "R. Gowda")


def test_written_as_read():
    info = BundleInfo(dt.date(2026, 10, 31), 'Mysuru "South"', None)
    import tomllib
    assert tomllib.loads(bundle_toml(info)) == {"as_of": dt.date(2026, 10, 31), "district": 'Mysuru "South"'}


BAD = [
    ('as_of = 2026-10-31\ndistrict = Mysuru\n', "bundle.toml, row 2: is not valid TOML"),
    ('as_of = 2026-10-31\nasof = 2026-10-30\n', "bundle.toml, row 2, column asof: is not a setting of bundle.toml; "
                                                "it may give as_of, district, prepared_by"),
    ('as_of = "31/10/2026"\n', "bundle.toml, row 1, column as_of: '31/10/2026' is not a date written YYYY-MM-DD"),
    ('as_of = 2026-10-31T10:00:00\n', "column as_of: '2026-10-31 10:00:00' is not a date written YYYY-MM-DD"),
    ('district = ""\n', "bundle.toml, row 1, column district: '' should be text in double quotes"),
    ('prepared_by = 7\n', "column prepared_by: '7' should be text in double quotes"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[b[1][:40] for b in BAD])
def test_malformed_is_one_clear_problem(tmp_path, text, message):
    with pytest.raises(InputRejected) as exc:
        _info(tmp_path, text)
    [problem] = exc.value.problems
    assert message in problem.render()


def test_run_takes_its_date_when_as_of_is_not_given_and_says_so(tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1", impounded_on="2026-10-01")])
    (bundle / "bundle.toml").write_text('as_of = 2026-10-31\ndistrict = "Mysuru"\n', encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out")
    assert code == 0, err
    assert "as of 2026-10-31, the date in the bundle's bundle.toml" in err
    assert "bundle.toml: not a" not in err                      # not taken for a register file
    assert 'as_of = 2026-10-31' in (tmp_path / "out" / "parameters.toml").read_text()
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out2", "--as-of", "2026-11-30")
    assert code == 0 and "bundle.toml" not in err
    assert 'as_of = 2026-11-30' in (tmp_path / "out2" / "parameters.toml").read_text()


def test_a_malformed_bundle_toml_rejects_the_run_with_one_line(tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "b")
    (bundle / "bundle.toml").write_text("as_of = 31-10-2026\n", encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out")
    assert code == 2 and err.startswith("bundle.toml, row 1: is not valid TOML") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_synth_writes_one(tmp_path):
    from pipeline.synth import SynthConfig, write_bundle

    cfg = SynthConfig(start="2024-03", pounds=3, months=4, cases_per_month=6, seed=3)
    write_bundle(tmp_path / "s", cfg)
    info = read_bundle_info(tmp_path / "s")
    assert info.as_of == cfg.months_span()[1] and info.prepared_by == "pound synth, seed 3"


@pytest.mark.parametrize("impounded_on, fires", [("2026-10-31", False), ("2026-11-01", True)])
def test_a_row_dated_after_the_bundles_own_date_is_a_future_date_finding(tmp_path, run_cli, impounded_on, fires):
    # the load keeps bundle.toml's as_of (loads.bundle_as_of); a row dated after it could not yet have
    # happened, whatever --as-of the accounts are drawn up to
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1", impounded_on=impounded_on)])
    (bundle / "bundle.toml").write_text("as_of = 2026-10-31\n", encoding="utf-8")
    code, out, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    findings = (tmp_path / "out" / "findings.csv").read_text(encoding="utf-8")
    assert ("DQ-FUTURE-DATE" in findings) is fires
    assert ("the bundle's own date (bundle.toml) 31-10-2026" in findings) is fires
    assert "rows dated after 2026-11-30, left out of the accounts: none" in out
