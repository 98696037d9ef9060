"""A digest of each file's rows kept at load (loads.digest), and a build that refuses rows changed
in the database since (pipeline/load/digests.py): a row updated, deleted or added by hand is named
with its register and file in one line, nothing built; an untouched database, a correction loaded
as a file and a database loaded before digests all build."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from helpers import load, make_bundle, write_csv

from pipeline.core.registers import BY_NAME
from pipeline.load import digests

AS_OF = "2026-11-30"
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"

# the README's correction of R-0006: a new file of the register, with a note (guide-office.md)
R0006 = ("release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,"
         "declaration_made,security_deposit_id,receipt_signed,court_order_ref,correction_note\n"
         "R-0006,M-2609-004,04/09/2026,1,s12_payment,Mahadevappa (owner),400.00,400.00,,no,,yes,,"
         "Receipt book shows Rs 400; 600 was written in error\n")


def execute(db: Path, *sql: str) -> None:
    con = duckdb.connect(str(db))
    try:
        for s in sql:
            con.execute(s)
    finally:
        con.close()


def builds(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM builds").fetchone()[0]
    finally:
        con.close()


@pytest.fixture
def office(shared, tmp_path) -> Path:
    """A copy of the session's `pound run data/sample`: its database."""
    return shared.run(SAMPLE, AS_OF, tmp_path / "out") / "pound.duckdb"


def build(run_cli, db: Path, out: Path):
    return run_cli("build", "--db", db, "--out", out, "--as-of", AS_OF)


EDITS = {
    "a value changed": ("UPDATE impoundments SET head_count = head_count + 1 WHERE case_id = 'M-2609-004'",
                        "the rows of impoundments loaded from registers/impoundments.csv on 2027-01-01 10:00 are not "
                        "as they were loaded"),
    "a row removed": ("DELETE FROM releases WHERE release_id = 'R-0006'",
                      "the rows of releases loaded from registers/releases.csv"),
    "a row added to a file's rows": ("INSERT INTO releases SELECT * REPLACE ('R-0099' AS release_id) FROM releases "
                                     "WHERE release_id = 'R-0006'", "the rows of releases loaded from "
                                     "registers/releases.csv"),
    "a row of no file": ("INSERT INTO releases SELECT * REPLACE ('R-0099' AS release_id, 999 AS _load_id) "
                         "FROM releases WHERE release_id = 'R-0006'",
                         "the database holds rows of releases that no file loaded (load id 999)"),
    "a version made current": ("UPDATE impoundments SET _version = 9 WHERE case_id = 'M-2608-001'",
                               "the rows of impoundments loaded from registers/impoundments.csv"),
    "a file's digest removed": ("UPDATE loads SET digest = NULL WHERE file = 'registers/releases.csv'",
                                "the digest of the rows of releases loaded from registers/releases.csv was removed"),
}


@pytest.mark.parametrize("edit", EDITS)
def test_a_register_row_changed_in_the_database_is_refused_at_the_next_build(office, run_cli, tmp_path, edit):
    sql, named = EDITS[edit]
    execute(office, sql)
    before = builds(office)
    code, out, err = build(run_cli, office, tmp_path / "built")
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert f"the database {office} was changed outside pound: {named}" in err
    assert f"Make it afresh from its bundle (pound run {SAMPLE} --out FOLDER --db {office})" in err
    assert builds(office) == before and not (tmp_path / "built").exists()


def test_an_untouched_database_builds_again(office, run_cli, tmp_path):
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 0, err
    assert "earlier version" not in err


def test_a_correction_loaded_as_a_file_builds(office, run_cli, tmp_path):
    fix = tmp_path / "fix"
    (fix / "registers").mkdir(parents=True)
    (fix / "registers" / "releases_2026-11_corrections.csv").write_text(R0006, encoding="utf-8")
    code, _, err = run_cli("ingest", fix, "--db", office, "--as-of", AS_OF)
    assert code == 0, err
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 0, err
    assert "R-0006" in (tmp_path / "built" / "corrections.csv").read_text(encoding="utf-8")


def test_a_database_loaded_before_digests_takes_its_rows_once_then_guards_them(office, run_cli, tmp_path):
    # as an earlier version left it: loads without the columns bundle_at and digest
    execute(office, "ALTER TABLE loads DROP COLUMN digest", "ALTER TABLE loads DROP COLUMN bundle_at")
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "earlier version" in ln]
    assert said == ["note: 16 file(s) were loaded by an earlier version of pound, which kept no digest of their rows: "
                    "their rows are taken as they stand now, and a later change made to them outside pound will be "
                    "refused"]
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 0 and "earlier version" not in err
    execute(office, "UPDATE releases SET fines_paid = 0 WHERE release_id = 'R-0006'")
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 1 and "the rows of releases loaded from registers/releases.csv" in err


def test_a_column_a_later_version_adds_leaves_the_digests_as_they_were(office, run_cli, tmp_path):
    execute(office, "ALTER TABLE impoundments ADD COLUMN later VARCHAR")
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 0, err
    execute(office, "UPDATE impoundments SET later = 'x' WHERE case_id = 'M-2609-004'")
    code, _, err = build(run_cli, office, tmp_path / "built")
    assert code == 1 and "the rows of impoundments loaded from registers/impoundments.csv" in err


def test_digests_are_pinned_to_duckdbs_hash(tmp_path):
    """The digests of a small bundle, as DuckDB's hash() gives them today: a DuckDB that hashes a
    value of any kind a register holds (text, date, time, count, money, flag, extra columns)
    otherwise fails here. Then the old digests cannot be checked: give digests.DIGEST a new name,
    so that a database's digests are taken afresh at its next build (with its note), not refused."""
    imp = BY_NAME["impoundments"]
    bundle = make_bundle(tmp_path / "b")
    write_csv(bundle / "registers" / "impoundments.csv",
              [{"case_id": "C1", "pound_id": "P1", "seized_on": "01/10/2026", "impounded_on": "01/10/2026",
                "impounded_time": "09:30", "animal_class": "cattle", "head_count": "2", "owner_id": "O1",
                "owner_name": "Owner O1", "remark": "by the tank"}], [*imp.names, "remark"])
    write_csv(bundle / "registers" / "releases.csv",
              [{"release_id": "R1", "case_id": "C1", "released_on": "02/10/2026", "head_count": "2",
                "basis": "s12_payment", "released_to": "Owner O1", "fines_paid": "1,200.50", "charges_paid": "400",
                "declaration_made": "no", "receipt_signed": "yes"}], BY_NAME["releases"].names)
    con, result = load(bundle)
    assert not result.rejected, result.rejected
    try:
        got = dict(con.execute("SELECT file, digest FROM loads WHERE register IN ('impoundments', 'releases', "
                               "'pounds')").fetchall())
        assert con.execute("SELECT _extra FROM impoundments").fetchone()[0] == {"remark": "by the tank"}
    finally:
        con.close()
    assert got == {"reference/pounds.csv": "d1:2:10:10162689696737366488",
                   "registers/impoundments.csv": "d1:1:20:17728094256521414448",
                   "registers/releases.csv": "d1:1:19:16915874250114049030"}


def test_the_digest_a_build_takes_is_the_one_the_load_kept(tmp_path):
    bundle = make_bundle(tmp_path / "b")
    con, result = load(bundle)
    assert not result.rejected, result.rejected
    try:
        kept = dict(con.execute("SELECT load_id, digest FROM loads").fetchall())
        assert digests.check(con) == [] and all(d.startswith(f"{digests.DIGEST}:") for d in kept.values())
        # near miss: one value of one reference row
        con.execute("UPDATE officials SET name = 'Ramesh G' WHERE person_id = 'PK1'")
        with pytest.raises(Exception, match="the rows of officials loaded from reference/officials.csv"):
            digests.check(con)
    finally:
        con.close()
