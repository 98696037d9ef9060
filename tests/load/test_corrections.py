"""Registers that change: corrections, rows struck out and restored, on the golden bundle.

G12 (pound PA, 2 cattle impounded 2026-11-02) had one head released by R12 on 2026-11-03 on
payment of Rs 600.00 fines and Rs 300.00 feeding (1 head x Rs 600 fine; 1 head x Rs 150 x 2
days), and the local fund booked the Rs 600.00 on 2026-11-20 (E09): matched.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from pipeline.load import connection

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bundle"
AS_OF = "2026-12-31"
REL = ("release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
       "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note,void\n")
R12 = "R12,G12,2026-11-03,1,s12_payment,Owner K,{fines},300,,no,,yes,,{note},{void}\n"
IMP = ("case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,head_count,"
       "description,owner_id,owner_name,owner_village,correction_note,void\n")
G12 = "G12,PA,2026-11-02,2026-11-02,,,,cattle,2,,K,Owner K,,{note},{void}\n"


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def bundle_with(tmp_path: Path, files: dict[str, str]) -> Path:
    bundle = tmp_path / "bundle"
    shutil.copytree(GOLDEN, bundle)
    for rel, text in files.items():
        (bundle / rel).write_text(text, encoding="utf-8")
    return bundle


def run(run_cli, bundle: Path, out: Path):
    code, _, err = run_cli("run", bundle, "--out", out, "--as-of", AS_OF)
    assert code == 0, err
    return {name: read(out / f"{name}.csv") for name in
            ("case_accounts", "fund_movements", "findings", "reconciliation", "corrections", "monthly_accounts")}


def g12(outs) -> dict:
    return {
        "movements": sorted((m["section"], m["account"], m["amount"]) for m in outs["fund_movements"]
                            if m["ref_id"] == "G12"),
        "status": [c["status"] for c in outs["case_accounts"] if c["case_id"] == "G12"],
        "reconciliation": [(r["status"], r["expected_amount"], r["ledger_amount"], r["difference"])
                           for r in outs["reconciliation"] if r["reference"] == "G12"],
        "findings": sorted((f["rule_id"], f["subject_id"]) for f in outs["findings"] if f["case_id"] == "G12"),
    }


NOTE_400 = "Receipt book shows Rs 400 collected; Rs 600 was written in error"
# R12's fines corrected from Rs 600 to Rs 400, in a later file of its own
FINES_400 = {"registers/releases_2026-12_corrections.csv": REL + R12.format(fines=400, note=NOTE_400, void="")}


def fines_400_out(shared) -> Path:
    """The folder `pound run` of the golden bundle with FINES_400 wrote: made once for the session
    (tests/shared.py; it stops there unless the run exits 0) and read only, as three tests run this
    very bundle."""
    def make(folder: Path) -> None:
        from shared import LOAD_TIME, quietly

        from pipeline.cli import main

        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("POUND_LOAD_TIME", LOAD_TIME)          # as the session's other runs are loaded
            code, said = quietly(main, ["run", str(bundle_with(folder, FINES_400)), "--out", str(folder / "out"),
                                        "--as-of", AS_OF])
        assert code == 0, said

    return shared.once("corrections-golden-r12-fines-400", make) / "out"


def outputs(out: Path) -> dict:
    return {name: read(out / f"{name}.csv") for name in
            ("case_accounts", "fund_movements", "findings", "reconciliation", "corrections", "monthly_accounts")}


@pytest.fixture(scope="module")
def original(shared):
    out = shared.run(GOLDEN, AS_OF)
    return {name: read(out / f"{name}.csv") for name in
            ("case_accounts", "fund_movements", "findings", "reconciliation", "corrections", "monthly_accounts")}


def test_the_golden_g12_as_it_stands(original):
    assert g12(original) == {
        "movements": [("18(2)", "local_fund", "600.00"), ("18(3)", "pound_keeper", "300.00")],
        # its second head, left unreported after R12 took the first (R26)
        "status": ["mixed"], "reconciliation": [("matched", "600.00", "600.00", "0.00")],
        "findings": [("HEADS-LEFT-IN-POUND", "G12")]}
    assert original["corrections"] == []


def test_an_amount_corrected_moves_every_output(shared):
    note = NOTE_400
    outs = outputs(fines_400_out(shared))
    after = g12(outs)
    # the local fund is owed what was paid (Rs 400.00), which the Rs 600.00 booked no longer matches;
    # and Rs 400.00 of a Rs 600.00 fine is a release on less than the fines fixed (s.12(1))
    assert after["movements"] == [("18(2)", "local_fund", "400.00"), ("18(3)", "pound_keeper", "300.00")]
    assert after["reconciliation"] == [("amount_mismatch", "400.00", "600.00", "200.00")]
    assert after["findings"] == [("HEADS-LEFT-IN-POUND", "G12"), ("REL-UNPAID", "R12")]
    november = [m for m in outs["monthly_accounts"] if m["month"] == "2026-11" and m["pound_id"] == "PA"][0]
    assert november["fines_received"] == "400.00"
    contract = ("register", "key", "version", "field", "was", "now", "correction_note", "file", "row", "loaded_at",
                "event_month")
    assert [{c: r[c] for c in contract} for r in outs["corrections"]] == [{
        "register": "releases", "key": "R12", "version": "2", "field": "fines_paid", "was": "600.00", "now": "400.00",
        "correction_note": note, "file": "registers/releases_2026-12_corrections.csv", "row": "2",
        "loaded_at": outs["corrections"][0]["loaded_at"], "event_month": "2026-11"}]


def test_a_correction_named_to_sort_before_what_it_corrects_still_supersedes_it(tmp_path, run_cli):
    # "releases-fix.csv" sorts before "releases.csv" ('-' before '.'): a file that corrects rows is
    # read after the register's files that do not, whatever the names, so R12's fines are Rs 400
    bundle = bundle_with(tmp_path, {"registers/releases-fix.csv": REL + R12.format(fines=400, note="receipt book",
                                                                                    void="")})
    outs = run(run_cli, bundle, tmp_path / "out")
    assert [(c["field"], c["was"], c["now"]) for c in outs["corrections"]] == [("fines_paid", "600.00", "400.00")]


def test_a_correction_loaded_by_an_earlier_ingest_is_not_told_to_be_renamed(tmp_path, run_cli):
    # the twin of the test above: "releases-fix.csv" was loaded by an earlier ingest, in its turn;
    # a later file sending R12 as it first was, with no note, is a plain conflict
    bundle = bundle_with(tmp_path, {"registers/releases-fix.csv": REL + R12.format(fines=400, note="receipt book",
                                                                                    void="")})
    (bundle / "registers" / "releases.csv").rename(tmp_path / "releases.csv")
    path = tmp_path / "p.duckdb"
    assert run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)[0] == 0
    (tmp_path / "releases.csv").rename(bundle / "registers" / "releases.csv")
    code, _, err = run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)
    assert code == 2 and "'R12' was already loaded from registers/releases-fix.csv" in err
    assert "rename" not in err and "To correct it, send the row again with a correction_note" in err


def test_a_file_edited_in_place_after_it_was_loaded_is_told_so_first(tmp_path, run_cli):
    bundle = bundle_with(tmp_path, {})
    path = tmp_path / "p.duckdb"
    assert run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)[0] == 0
    releases = bundle / "registers" / "releases.csv"
    text = original_text = releases.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("R12,"))
    releases.write_text(text.replace(line, line.replace(",600", ",400", 1)), encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)
    assert code == 2
    lines = [ln.strip() for ln in err.splitlines() if ln.strip().startswith("registers/releases.csv")]
    # R12 is row 11 of releases.csv (the header is row 1)
    assert "and has changed since, in row 11: a file once loaded is not edited. Put it back as it was loaded" in lines[0]
    assert "put the corrected rows in a new file of the register whose name sorts after it (for example " \
           "registers/releases_corrections.csv), each with a correction_note" in lines[0]
    assert "'R12' was already loaded from registers/releases.csv" in lines[1]
    # its twin: a file of the same name in another bundle was not edited; it only conflicts
    other = tmp_path / "other"
    shutil.copytree(bundle, other)
    code, _, err = run_cli("ingest", other, "--db", path, "--as-of", AS_OF)
    assert code == 2 and "'R12' was already loaded from registers/releases.csv" in err
    assert "has changed since" not in err
    # nor is a file that only gained rows, one of them with a mistake: it conflicts with nothing
    releases.write_text(original_text + "R99,G12,2026-11-04,1,s12_payment,Owner K,six hundred,300,,no,,yes,\n",
                        encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)
    assert code == 2 and "'six hundred' is not an amount" in err and "has changed since" not in err


def test_a_file_edited_in_place_in_a_copied_office_folder_is_told_so_first(tmp_path, run_cli):
    office = tmp_path / "office"
    bundle = bundle_with(office, {})
    assert run_cli("ingest", bundle, "--db", office / "p.duckdb", "--as-of", AS_OF)[0] == 0
    copy = tmp_path / "copy"
    shutil.copytree(office, copy)
    releases = copy / "bundle" / "registers" / "releases.csv"
    text = releases.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("R12,"))
    releases.write_text(text.replace(line, line.replace(",600", ",400", 1)), encoding="utf-8")
    code, _, err = run_cli("ingest", copy / "bundle", "--db", copy / "p.duckdb", "--as-of", AS_OF)
    assert code == 2 and "and has changed since, in row 11: a file once loaded is not edited" in err


def test_a_file_edited_in_place_names_only_the_rows_that_changed(tmp_path, run_cli):
    """R12 corrected by a file of its own, then releases.csv edited in place at R11 only: R12's row
    in releases.csv differs from R12 now (the correction), but the clerk did not touch it, so only
    R11 is named; its twin, a file edited at R12 itself, names R12."""
    fix = REL + R12.format(fines=400, note="receipt book", void="")
    bundle = bundle_with(tmp_path, {"registers/releases_corrections.csv": fix})
    path = tmp_path / "p.duckdb"
    assert run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)[0] == 0
    releases = bundle / "registers" / "releases.csv"
    text = releases.read_text(encoding="utf-8")
    lines = text.splitlines()
    r11 = next(i for i, ln in enumerate(lines) if ln.startswith("R11,"))
    edited = lines[r11].replace(",750,", ",700,", 1)
    assert edited != lines[r11]
    releases.write_text(text.replace(lines[r11], edited), encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)
    assert code == 2
    assert f"has changed since, in row {r11 + 1}:" in err
    assert "'R11' was already loaded" in err and "'R12' was already loaded" not in err
    # the twin: the same file edited at R12 (the row corrected since) names R12, and only it
    r12 = next(i for i, ln in enumerate(lines) if ln.startswith("R12,"))
    releases.write_text(text.replace(lines[r12], lines[r12].replace("Owner K", "Owner K.", 1)), encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", path, "--as-of", AS_OF)
    assert code == 2 and f"has changed since, in row {r12 + 1}:" in err
    assert "'R12' was already loaded" in err and "'R11' was already loaded" not in err


def test_a_row_struck_out_vanishes_and_a_restored_one_returns(tmp_path, run_cli, original):
    struck = REL + R12.format(fines=600, note="Entered against the wrong case", void="yes")
    outs = run(run_cli, bundle_with(tmp_path / "a", {"registers/releases_2026-12_corrections.csv": struck}),
               tmp_path / "a" / "out")
    after = g12(outs)
    assert after["movements"] == [] and after["status"] == ["in_pound"]
    assert after["reconciliation"] == [("unexpected", "", "600.00", "600.00")]     # E09 now explains nothing
    assert [(c["field"], c["was"], c["now"]) for c in outs["corrections"]] == [("void", "no", "yes")]
    # sent again, with a note, in a later load: R12 is back as it was
    restored = REL + R12.format(fines=600, note="Restored: it was the right case after all", void="no")
    bundle = bundle_with(tmp_path / "b", {"registers/releases_2026-12_corrections.csv": struck,
                                          "registers/releases_2026-12_corrections_2.csv": restored})
    # in one load, nothing in the two rows says which is the later: refused, naming both files
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "b" / "refused", "--as-of", AS_OF)
    assert code == 2 and "corrected by this file and by registers/releases_2026-12_corrections.csv" in err
    later = tmp_path / "b" / "later.csv"
    (bundle / "registers" / "releases_2026-12_corrections_2.csv").rename(later)
    db = tmp_path / "b" / "p.duckdb"
    assert run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)[0] == 0
    later.rename(bundle / "registers" / "releases_2026-12_corrections_2.csv")
    assert run_cli("ingest", bundle, "--db", db, "--as-of", AS_OF)[0] == 0
    code, _, err = run_cli("build", "--db", db, "--out", tmp_path / "b" / "out", "--as-of", AS_OF)
    assert code == 0, err
    outs = {name: read(tmp_path / "b" / "out" / f"{name}.csv") for name in
            ("case_accounts", "fund_movements", "findings", "reconciliation", "corrections", "monthly_accounts")}
    assert g12(outs) == g12(original)
    assert [(c["version"], c["field"], c["was"], c["now"]) for c in outs["corrections"]] == \
        [("2", "void", "no", "yes"), ("3", "void", "yes", "no")]


def test_an_identical_row_sent_again_adds_nothing(tmp_path, run_cli, original):
    same = REL + R12.format(fines=600, note="Sent again by mistake", void="")
    bundle = bundle_with(tmp_path, {"registers/releases_2026-12_corrections.csv": same})
    code, out, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", AS_OF)
    assert code == 0, err
    assert "0 new row(s)" not in err
    outs = {n: read(tmp_path / "out" / f"{n}.csv") for n in ("corrections", "fund_movements")}
    assert outs["corrections"] == [] and outs["fund_movements"] == original["fund_movements"]


def test_striking_out_a_case_needs_its_release_struck_out_in_the_same_load(tmp_path, run_cli):
    case_only = {"registers/impoundments_2026-12_corrections.csv": IMP + G12.format(note="No such case", void="yes")}
    bundle = bundle_with(tmp_path / "a", case_only)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "a" / "out", "--as-of", AS_OF)
    assert code == 2
    assert ("registers/impoundments_2026-12_corrections.csv, row 2, column void: 'yes' strikes out case_id G12, "
            "but releases R12 (registers/releases.csv row 11) still refers to it") in err
    both = dict(case_only, **{"registers/releases_2026-12_corrections.csv":
                              REL + R12.format(fines=600, note="No such case", void="yes")})
    outs = run(run_cli, bundle_with(tmp_path / "b", both), tmp_path / "b" / "out")
    assert g12(outs)["status"] == [] and g12(outs)["movements"] == []
    assert sorted((c["register"], c["field"]) for c in outs["corrections"]) == [("impoundments", "void"),
                                                                               ("releases", "void")]


def test_run_of_both_files_equals_ingest_of_each_then_build(tmp_path, run_cli, shared):
    correction = FINES_400
    one = fines_400_out(shared)             # `pound run` of the golden bundle with the correction
    kept = tmp_path / "kept.duckdb"
    assert run_cli("ingest", GOLDEN, "--db", kept)[0] == 0
    only = tmp_path / "later"
    (only / "registers").mkdir(parents=True)
    for rel, text in correction.items():
        (only / rel).write_text(text, encoding="utf-8")
    assert run_cli("ingest", only, "--db", kept)[0] == 0
    assert run_cli("build", "--db", kept, "--out", tmp_path / "two", "--as-of", AS_OF)[0] == 0
    for path in sorted(one.glob("*.csv")):
        a, b = read(path), read(tmp_path / "two" / path.name)
        for r in a + b:
            r.pop("loaded_at", None)          # when a file was loaded is the one thing that differs
        assert a == b, path.name


def test_versions_are_kept_with_their_file_and_row(tmp_path, shared):
    db = shutil.copytree(fines_400_out(shared), tmp_path / "out") / "pound.duckdb"    # the session's run of FINES_400
    con = connection.connect(db, read_only=True)
    try:
        rows = con.execute("SELECT _version, fines_paid, _file, _row, correction_note FROM releases "
                           "WHERE release_id = 'R12' ORDER BY _version").fetchall()
    finally:
        con.close()
    assert rows == [(1, 60000, "registers/releases.csv", 11, None),
                    (2, 40000, "registers/releases_2026-12_corrections.csv", 2, NOTE_400)]
