"""pound synth --district NAME: one district of that name; no two pounds of a bundle share a name."""

import csv

from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.synth import SynthConfig
from pipeline.synth.config import DISTRICTS
from pipeline.synth.reference import reference
from pipeline.synth.state import Generator


def _reference(**kw):
    g = Generator(SynthConfig(start="2024-03", months=2, **kw))
    reference(g)
    return g.t


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10_000), pounds=st.integers(1, 80),
       district=st.one_of(st.none(), st.sampled_from(sorted(DISTRICTS))))
def test_no_two_pounds_share_a_name_and_a_district_asked_for_is_the_only_one(seed, pounds, district):
    t = _reference(seed=seed, pounds=pounds, district=district)
    p = t["pounds"]
    assert len(p) == pounds and p["name"].is_unique and p["pound_id"].is_unique
    # a taluk's name is its district's and a number: two districts never share a taluk
    taluks = p.drop_duplicates("taluk")
    assert all(t_.startswith(d + " Taluk ") for t_, d in zip(taluks["taluk"], taluks["district"], strict=True))
    if district:
        assert set(p["district"]) == set(t["local_authorities"]["district"]) == {district}
        assert set(t["officials"]["district"]) == {district}
    else:
        assert len(set(p["district"])) == max(1, min(len(DISTRICTS), round(pounds / 6)))


def test_twin_without_the_numbering_two_pounds_of_a_taluk_would_share_a_name():
    # 12 pounds in taluks of two: each taluk holds two pounds, told apart only by their number
    p = _reference(seed=1, pounds=12)["pounds"]
    assert p.groupby("taluk").size().max() == 2
    assert not p["name"].str.replace(r" pound \d+$", " pound", regex=True).is_unique


def test_pound_synth_district_writes_that_district_alone(tmp_path, run_cli):
    out = tmp_path / "mysuru"
    code, _, err = run_cli("synth", "--out", out, "--district", "mysuru", "--pounds", "9", "--months", "2",
                           "--cases-per-month", "4", "--seed", "7", "--start", "2026-01")
    assert code == 0, err
    with (out / "reference" / "pounds.csv").open(encoding="utf-8") as fh:
        pounds = list(csv.DictReader(fh))
    assert {p["district"] for p in pounds} == {"Mysuru"} and len({p["name"] for p in pounds}) == 9
    assert 'district = "Mysuru"' in (out / "bundle.toml").read_text(encoding="utf-8")
    code, _, err = run_cli("run", out, "--out", tmp_path / "o")
    assert code == 0, err


def test_a_district_synth_does_not_know_is_named_with_the_nearest(tmp_path, run_cli):
    code, _, err = run_cli("synth", "--out", tmp_path / "x", "--district", "Mysru")
    assert code == 1 and "argument --district: 'Mysru': did you mean Mysuru?" in err
    code, _, err = run_cli("synth", "--out", tmp_path / "x", "--district", "Atlantis")
    assert code == 1 and "'Atlantis' is not a district synth knows; one of Bengaluru Urban, Belagavi" in err
    assert not (tmp_path / "x").exists()
