"""Bad input: exit 2, a message naming file, row, column, value and what was expected,
and the database exactly as it was before."""

import shutil

import pytest
from helpers import case, make_bundle, snapshot

from pipeline.load import connection

IMP = "case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,head_count,description,owner_id,owner_name,owner_village\n"
REL = "release_id,case_id,released_on,head_count,basis,released_to,fines_paid,charges_paid,protest_deposit,declaration_made,security_deposit_id,receipt_signed,court_order_ref\n"
GOOD_REL = "R9,C1,03/10/2026,1,s12_payment,owner,600,600,,no,,yes,\n"

# name, {path in bundle: text}, [every substring the message must contain]
CASES = [
    ("missing column", {"registers/impoundments_x.csv": IMP.replace(",head_count", "") + "C2,P1,,2026-10-01,,,,cattle,,,,,\n"},
     ["registers/impoundments_x.csv", "row 1", "lacks the column(s) head_count"]),
    ("date not a date", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026/10/05,,,,cattle,1,,,,\n"},
     ["registers/impoundments_x.csv, row 2, column impounded_on: '2026/10/05' is not a date", "DD/MM/YYYY"]),
    ("impossible date", {"registers/impoundments_x.csv": IMP + "C2,P1,,31/02/2026,,,,cattle,1,,,,\n"},
     ["row 2, column impounded_on: '31/02/2026' is not a real calendar date"]),
    ("money three decimals", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,s12_payment,o,600.125,600,,no,,yes,\n"},
     ["registers/releases_x.csv, row 2, column fines_paid: '600.125' has more than two decimals", "never rounded"]),
    ("money with text", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,s12_payment,o,Rs 600,600,,no,,yes,\n"},
     ["row 2, column fines_paid: 'Rs 600' is not an amount", "600.50"]),
    # 17 digits in Indian groups: DuckDB's cast of it overflowed, and the run failed with no row named
    ("money beyond 15 digits", {"registers/releases_x.csv": REL + 'R2,C1,03/10/2026,1,s12_payment,o,"93,00,00,00,00,00,00,000",600,,no,,yes,\n'},
     ["registers/releases_x.csv, row 2, column fines_paid: '93,00,00,00,00,00,00,000' is not an amount"]),
    ("negative amount", {"registers/releases_x.csv": REL + GOOD_REL + "R2,C1,03/10/2026,1,s12_payment,o,-600,600,,no,,yes,\n"},
     ["row 3, column fines_paid: 'Rs -600.00' is negative"]),
    ("negative count", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,-1,s12_payment,o,600,600,,no,,yes,\n"},
     ["row 2, column head_count: '-1' is negative"]),
    ("zero heads impounded", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cattle,0,,,,\n"},
     ["row 2, column head_count: '0' is below 1", "at least 1"]),
    ("count not whole", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cattle,2.5,,,,\n"},
     ["row 2, column head_count: '2.5' is not a whole number"]),
    ("duplicate key in file", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cattle,1,,,,\nC3,P1,,2026-10-01,,,,cattle,1,,,,\nC2,P1,,2026-10-02,,,,cattle,1,,,,\n"},
     ["row 4, column case_id: 'C2' appears more than once", "first at row 2"]),
    ("key loaded with other values", {"registers/impoundments_x.csv": IMP + "C1,P1,,2026-10-01,,,,cattle,5,,O1,Owner O1,\n"},
     ["registers/impoundments_x.csv, row 2, column case_id: 'C1' was already loaded from registers/impoundments.csv (row 2)", "head_count",
      "send the row again with a correction_note saying why"]),
    ("strike-out without a note", {"registers/impoundments_x.csv": IMP.strip() + ",correction_note,void\n" + "C1,P1,2026-10-01,2026-10-01,,,,cattle,1,,O1,Owner O1,,,yes\n"},
     ["registers/impoundments_x.csv, row 2, column correction_note: is blank on a row struck out (void = yes)"]),
    ("strike-out that orphans a row", {"registers/impoundments_x.csv": IMP.strip() + ",correction_note,void\n" + "C1,P1,2026-10-01,2026-10-01,,,,cattle,1,,O1,Owner O1,,entered in error,yes\n"},
     ["registers/impoundments_x.csv, row 2, column void: 'yes' strikes out case_id C1, but security_deposits D1",
      "still refers to it; strike that row out too"]),
    ("strike-out of a row never loaded", {"registers/impoundments_x.csv": IMP.strip() + ",correction_note,void\n" + "C8,P1,2026-10-01,2026-10-01,,,,cattle,1,,O1,Owner O1,,entered in error,yes\n"},
     ["row 2, column void: 'yes' strikes out case_id C8, which was never loaded"]),
    ("review of an unknown rule", {"registers/finding_reviews.csv": "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\nREL-LATE,R1,2026-10-05,DM,explained,\n"},
     ["registers/finding_reviews.csv, row 2, column rule_id: 'REL-LATE' is not one of the allowed values", "REL-UNPAID"]),
    ("review with an unknown decision", {"registers/finding_reviews.csv": "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\nrel-unpaid,R1,2026-10-05,DM,ignored,\n"},
     ["row 2, column decision: 'ignored' is not one of the allowed values", "explained, action_ordered, accepted, referred, reopened"]),
    ("review dated ahead", {"registers/finding_reviews.csv": "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\nREL-UNPAID,R1,01/01/2099,DM,explained,\n"},
     ["row 2, column reviewed_on: '01-01-2099' is after", "a decision cannot be recorded before it is made"]),
    ("unknown pound", {"registers/impoundments_x.csv": IMP + "C2,P7,,2026-10-01,,,,cattle,1,,,,\n"},
     ["row 2, column pound_id: 'P7' is not a pound_id of any row in pounds"]),
    # R4 of the second reading: a re-seizure names the case delivered under protest, a loaded one
    ("re-seizure of an unknown case", {"registers/impoundments_x.csv": IMP.strip() + ",reseizure_of\n"
                                       + "C2,P1,,2026-11-01,,,,cattle,1,,O1,Owner O1,,C404\n"},
     ["registers/impoundments_x.csv, row 2, column reseizure_of: 'C404' is not a case_id of any row in impoundments"]),
    # R5: a disposal after a rejected bid must say how the cattle were disposed of
    ("disposal without a note", {"registers/sales_x.csv": "sale_id,case_id,path,sale_on,head_offered,head_sold,bid_amount,"
                                 "accepted,buyer_name,buyer_person_id,conducted_by,sale_expenses,balance_paid,disposal_note\n"
                                 "S9,C1,s15_disposal,20/10/2026,1,1,0,yes,,,SO1,,,\n"},
     ["registers/sales_x.csv, row 2, column disposal_note: is blank on a row whose path is s15_disposal"]),
    ("unknown case", {"registers/releases_x.csv": REL + "R2,C404,03/10/2026,1,s12_payment,o,600,600,,no,,yes,\n"},
     ["registers/releases_x.csv, row 2, column case_id: 'C404' is not a case_id of any row in impoundments"]),
    ("unknown deposit", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,s12_payment,o,600,600,,yes,D404,yes,\n"},
     ["row 2, column security_deposit_id: 'D404' is not a deposit_id of any row in security_deposits"]),
    ("unknown local authority", {"reference/pounds.csv": "pound_id,name,local_authority_id,taluk,district,pound_keeper_id\nP5,New Pound,LA9,Plain,Mysuru,\n"},
     ["reference/pounds.csv, row 2, column local_authority_id: 'LA9' is not a local_authority_id"]),
    ("unknown animal class", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cow,1,,,,\n"},
     ["row 2, column animal_class: 'cow' is not one of the allowed values", "cattle, calf, buffalo"]),
    ("value outside its set", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,paid,o,600,600,,no,,yes,\n"},
     ["row 2, column basis: 'paid' is not one of the allowed values", "s12_payment, s16_protest, s17_remainder, court_order"]),
    ("bad flag", {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,s12_payment,o,600,600,,maybe,,yes,\n"},
     ["row 2, column declaration_made: 'maybe' is not a yes/no value"]),
    ("bad time", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,25:00,,,cattle,1,,,,\n"},
     ["row 2, column impounded_time: '25:00' is not a time of day"]),
    ("blank required value", {"registers/impoundments_x.csv": IMP + ",P1,,2026-10-01,,,,cattle,1,,,,\n"},
     ["row 2, column case_id: is blank; every impoundments row needs a case_id"]),
    ("not utf-8", {"registers/impoundments_x.csv": (IMP + "C2,P1,,2026-10-01,,,,cattle,1,,O9,Jos\xe9,\n").encode("latin-1")},
     ["registers/impoundments_x.csv, row 2: is not valid UTF-8 text (byte 0xE9)", "CSV UTF-8"]),
    # Excel's "CSV (Comma delimited)" on Windows writes Windows-1252: the first row that is not UTF-8 is named
    ("ansi in a later row", {"registers/impoundments_x.csv": (IMP + "C2,P1,,2026-10-01,,,,cattle,1,,O9,Jose,\n"
                                                               "C3,P1,,2026-10-01,,,,cattle,1,,O9,\"Jos\xe9\nsr\",\n").encode("cp1252")},
     ["registers/impoundments_x.csv, row 3: is not valid UTF-8 text (byte 0xE9); it was probably saved as 'ANSI'",
      "in Excel, File > Save As, type 'CSV UTF-8 (Comma delimited) (*.csv)'", "in LibreOffice Calc", "'Unicode (UTF-8)'"]),
    ("utf-16 unicode text", {"registers/impoundments_x.csv": (IMP + "C2,P1,,2026-10-01,,,,cattle,1,,,,\n").encode("utf-16")},
     ["registers/impoundments_x.csv: is saved as UTF-16 ('Unicode Text'", "CSV UTF-8", "LibreOffice"]),
    ("utf-16 without a mark", {"registers/impoundments_x.csv": (IMP + "C2,P1,,2026-10-01,,,,cattle,1,,,,\n").encode("utf-16-le")},
     ["registers/impoundments_x.csv: is saved as UTF-16"]),
    ("ragged row", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cattle,1,,,,\nC3,P1,,2026-10-01,,,,cattle,1,,,,,extra\n"},
     ["registers/impoundments_x.csv, row 3: could not be read as CSV: it has 14 cells but the header names 13 columns"]),
    ("empty file", {"registers/impoundments_x.csv": ""}, ["registers/impoundments_x.csv: is empty; expected a header row"]),
    ("duplicate header", {"registers/impoundments_x.csv": IMP.replace("description", "owner_id") + "C2,P1,,2026-10-01,,,,cattle,1,,,,\n"},
     ["row 1, column owner_id: appears twice in the header (columns 10 and 11)"]),
    ("overlapping rates", {"reference/rates.csv": "animal_class,taluk,effective_from,effective_to,fine_per_head,feeding_per_head_per_day,security_per_head\ncattle,*,2026-01-01,,700,250,1000\n"},
     ["reference/rates.csv, row 2, column effective_from: '2026-01-01' (in force 2026-01-01 to open) overlaps reference/rates.csv row 2",
      "two rows in force"]),
    ("bad cell in a workbook sheet", "xlsx", ["book.xlsx [sheet impoundments], row 3, column impounded_on: '2026.10.05' is not a date"]),
    ("several problems listed together", {"registers/impoundments_x.csv": IMP + "C2,P1,,2026-10-01,,,,cattle,1,,,,\nC3,P1,,32/10/2026,,,,goose,0,,,,\n"},
     ["row 3, column impounded_on: '32/10/2026'", "row 3, column animal_class: 'goose'", "row 3, column head_count: '0' is below 1",
      "3 problem(s)"]),
]


def _write(bundle, files):
    if files == "xlsx":
        from openpyxl import Workbook
        wb = Workbook()
        ws = wb.active
        ws.title = "impoundments"
        ws.append(IMP.strip().split(","))
        ws.append(["C2", "P1", None, "2026-10-01", None, None, None, "cattle", 1])
        ws.append(["C3", "P1", None, "2026.10.05", None, None, None, "cattle", 1])
        (bundle / "registers").mkdir(parents=True, exist_ok=True)
        wb.save(bundle / "registers" / "book.xlsx")
        return
    for rel, text in files.items():
        path = bundle / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


# The module's tests run in one test process, which makes the module's fixture once (spread
# over two processes, each made it).
pytestmark = [pytest.mark.xdist_group("rejections")]


@pytest.fixture(scope="module")
def _loaded(tmp_path_factory):
    root = tmp_path_factory.mktemp("loaded")
    base = make_bundle(root / "base",
                       impoundments=[case("C1", impounded_on="2026-10-01")],
                       security_deposits=[{"deposit_id": "D1", "case_id": "C1", "owner_id": "O1",
                                           "deposited_on": "2026-10-02", "amount": "1000"}])
    path = root / "pound.duckdb"
    con = connection.connect(path)
    from pipeline.load.ingest import ingest
    assert not ingest(con, base).rejected
    before = snapshot(con)
    con.close()
    return path, before


@pytest.fixture
def loaded_db(_loaded, tmp_path):
    """A database holding a small bundle, loaded once for the module; each test gets a copy."""
    path = tmp_path / "pound.duckdb"
    shutil.copyfile(_loaded[0], path)
    return path


@pytest.fixture
def before(_loaded):
    """Every row of that database, as each test's copy holds it before the test."""
    return _loaded[1]


@pytest.mark.parametrize("name, files, expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_rejected_and_loses_nothing(name, files, expected, tmp_path, loaded_db, before, run_cli):
    bundle = tmp_path / "bad"
    _write(bundle, files)
    code, out, err = run_cli("ingest", bundle, "--db", loaded_db)
    assert code == 2, err
    for text in expected:
        assert text in err, f"{text!r} not in:\n{err}"
    assert "Traceback" not in err
    con = connection.connect(loaded_db)
    assert snapshot(con) == before
    con.close()


def test_run_with_a_rejected_file_writes_nothing(tmp_path, sample_bundle, run_cli):
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    path = bundle / "registers" / "sales.csv"
    path.write_text(path.read_text().replace("29/08/2026", "29/08/26"), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = run_cli("run", bundle, "--out", out, "--as-of", "2026-11-30")
    assert code == 2
    assert "registers/sales.csv, row 2, column sale_on: '29/08/26' is not a date" in err
    assert "nothing was written" in err
    # the summary does not say files were loaded when none was kept
    assert "loaded" not in stdout.replace("nothing was loaded", "")
    assert "passed, 1 rejected; nothing was loaded or written" in stdout
    assert not out.exists()


def test_run_needs_every_reference_file(tmp_path, sample_bundle, run_cli):
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    (bundle / "reference" / "rates.csv").unlink()
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out")
    assert code == 2
    assert "reference/rates.csv: is missing; reference/ must hold" in err
    assert not (tmp_path / "out").exists()


def test_a_file_rejected_in_the_middle_of_a_bundle(tmp_path, run_cli):
    """A bad impoundments file is rejected; the files that refer to its cases are rejected
    for that reason, each saying so; the reference before it and the ledgers after it load."""
    bundle = make_bundle(tmp_path / "b",
                         impoundments=[case("C1"), case("C2", head_count=0)],
                         releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-02", "head_count": 1,
                                    "basis": "s12_payment", "fines_paid": "600", "charges_paid": "400",
                                    "receipt_signed": "yes"}],
                         local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": "2026-10-05",
                                      "amount": "600", "reference": "C1", "head": "fines"}])
    path = tmp_path / "p.duckdb"
    code, out, err = run_cli("ingest", bundle, "--db", path)
    assert code == 2
    assert "REJECTED registers/impoundments.csv" in err and "'0' is below 1" in err
    # one mistake, one message: the releases file says once why it was not loaded
    assert "REJECTED registers/releases.csv" in err and "'C1' is not a case_id" not in err
    releases_lines = [ln for ln in err.splitlines() if "registers/releases.csv" in ln]
    assert releases_lines == ["REJECTED registers/releases.csv: not loaded: it refers to rows of registers/impoundments.csv "
                              "(case_id C1), which was rejected; send this file again with the corrected one"], err
    con = connection.connect(path)
    assert con.execute("SELECT count(*) FROM impoundments").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM releases").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM local_fund").fetchone()[0] == 1
    assert con.execute("SELECT count(*) FROM pounds").fetchone()[0] == 2
    statuses = dict(con.execute("SELECT file, status FROM loads").fetchall())
    assert "registers/impoundments.csv" not in statuses and statuses["ledgers/local_fund.csv"] == "loaded"


def test_a_file_whose_rows_cannot_be_read_rejects_its_dependants_in_one_line_each(tmp_path, run_cli):
    """An impoundments file saved as Windows-1252: its cases are unknown, so the releases file that
    names them is rejected in one line for that reason, not row by row as naming unknown cases."""
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1", owner_name="Ramesh")],
                         releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-02", "head_count": 1,
                                    "basis": "s12_payment", "fines_paid": "600", "charges_paid": "400",
                                    "receipt_signed": "yes"}])
    imp = bundle / "registers" / "impoundments.csv"
    imp.write_bytes(imp.read_text(encoding="utf-8").replace("Ramesh", "Rames\u00e9").encode("cp1252"))
    code, _, err = run_cli("ingest", bundle, "--db", tmp_path / "p.duckdb")
    assert code == 2 and "REJECTED registers/impoundments.csv" in err and "UTF-8" in err
    assert [ln for ln in err.splitlines() if "registers/releases.csv" in ln] == [
        "REJECTED registers/releases.csv: not loaded: it refers to rows (case_id C1) that may be in "
        "registers/impoundments.csv, which was rejected before its rows could be read; send this file again with "
        "the corrected one"], err


def test_more_bad_inputs(tmp_path, loaded_db, before, run_cli):
    """A row cut short, a workbook that cannot be opened, a formula never saved, a rate overlapping in another case."""
    from openpyxl import Workbook
    bad = tmp_path / "bad"
    _write(bad, {"registers/releases_x.csv": REL + "R2,C1,03/10/2026,1,s12_payment\n",
                 "registers/broken.xlsx": "this is not a workbook",
                 "reference/rates.csv": "animal_class,taluk,effective_from,effective_to,fine_per_head,feeding_per_head_per_day,"
                                        "security_per_head\ncalf,PLAIN,2026-01-01,,700,250,1000\ncalf,plain,2026-01-01,,800,250,1000\n"})
    wb = Workbook()
    ws = wb.active
    ws.title = "impoundments"
    ws.append(IMP.strip().split(","))
    ws.append(["C2", "P1", None, "2026-10-01", None, None, None, "cattle", "=1+1"])
    wb.save(bad / "registers" / "script.xlsx")
    code, _, err = run_cli("ingest", bad, "--db", loaded_db)
    assert code == 2, err
    assert "registers/releases_x.csv, row 2: has 5 cell(s) but the header names 13 columns" in err
    assert "registers/broken.xlsx: cannot be opened as an Excel workbook" in err
    assert "registers/script.xlsx [sheet impoundments], row 2, column I: '=1+1' is a formula whose result was never saved" in err
    assert "reference/rates.csv, row 3, column effective_from: '2026-01-01' (in force 2026-01-01 to open) overlaps row 2" in err
    assert "Traceback" not in err
    con = connection.connect(loaded_db)
    assert snapshot(con) == before


def test_a_file_naming_only_rows_held_loads_beside_a_rejected_one(tmp_path, run_cli):
    """The near miss of the one-line refusal: C1 is held from an earlier load, so a release of C1
    loads even though this load's impoundments file (of C2) is rejected; a release naming a case no
    file holds still gets its row-by-row message."""
    first = make_bundle(tmp_path / "first", impoundments=[case("C1")])
    path = tmp_path / "p.duckdb"
    code, _, err = run_cli("ingest", first, "--db", path)
    assert code == 0, err
    rel = {"released_on": "2026-10-02", "head_count": 1, "basis": "s12_payment", "fines_paid": "600",
           "charges_paid": "400", "receipt_signed": "yes"}
    second = make_bundle(tmp_path / "second", reference=False,
                         impoundments=[case("C2", head_count=0)],
                         releases=[{"release_id": "R1", "case_id": "C1", **rel}])
    code, _, err = run_cli("ingest", second, "--db", path)
    assert code == 2 and "REJECTED registers/impoundments.csv" in err
    assert "registers/releases.csv" not in err
    con = connection.connect(path)
    assert con.execute("SELECT release_id FROM releases").fetchall() == [("R1",)]
    con.close()
    third = make_bundle(tmp_path / "third", reference=False, releases=[{"release_id": "R2", "case_id": "C9", **rel}])
    code, _, err = run_cli("ingest", third, "--db", path)
    assert code == 2 and "'C9' is not a case_id of any row in impoundments" in err


def test_a_reseizure_may_name_a_case_of_its_own_file(tmp_path):
    # R4: the case delivered under protest and its re-seizure may arrive in one file
    from helpers import load
    bundle = make_bundle(tmp_path, impoundments=[case(), case("C2", impounded_on="2026-11-01", reseizure_of="C1")])
    con, _ = load(bundle)
    assert con.execute("SELECT case_id, reseizure_of FROM impoundments ORDER BY case_id").fetchall() == \
        [("C1", None), ("C2", "C1")]


def _declaring(path, dimension: str | None, rows: list[list]) -> None:
    """A workbook of `rows` in the sheet impoundments whose <dimension> says `dimension` (the size
    the sheet claims, which openpyxl fills each row out to; None: no dimension, as some writers leave it)."""
    import re
    import zipfile

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "impoundments"
    for row in rows:
        ws.append(row)
    wb.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = re.sub(rb'<dimension ref="[^"]*"/>', f'<dimension ref="{dimension}"/>'.encode() if dimension else b"",
                          parts[sheet])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_a_workbook_past_a_registers_size_is_refused_before_it_is_read(tmp_path, loaded_db, before, run_cli):
    # a sheet of a few kilobytes declaring 20,000 rows by 16,384 columns (openpyxl would fill every
    # row out to it: gigabytes), and a part that unpacks a thousand times its size (a zip bomb):
    # each refused in one line, quickly, and the database as it was
    import time
    import zipfile

    bad = tmp_path / "bad"
    (bad / "registers").mkdir(parents=True)
    rows = [IMP.strip().split(","), ["C2", "P1", None, "2026-10-01", None, None, None, "cattle", 1]]
    _declaring(bad / "registers" / "wide.xlsx", "A1:XFD20000", rows)
    _declaring(bad / "registers" / "far.xlsx", None, [rows[0], rows[1] + [None] * 290 + ["x"]])
    with zipfile.ZipFile(bad / "registers" / "bomb.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/sharedStrings.xml", b" " * (20 * 1024**2))
    # a row far down, with no dimension to say so (openpyxl fills every row between), and a sheet
    # named twice
    _declaring(bad / "registers" / "down.xlsx", None, rows)
    with zipfile.ZipFile(bad / "registers" / "down.xlsx") as z:
        parts = {n: z.read(n) for n in z.namelist()}
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(b"</sheetData>",
                                                                                b'<row r="1000000"/></sheetData>')
    twice = (b'<sheet xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
             b'name=" Impoundments " sheetId="2" r:id="rId1"/>')
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"</sheets>", twice + b"</sheets>")
    with zipfile.ZipFile(bad / "registers" / "twice.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(twice, b"")
    with zipfile.ZipFile(bad / "registers" / "down.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    t0 = time.monotonic()
    code, _, err = run_cli("ingest", bad, "--db", loaded_db)
    assert code == 2 and time.monotonic() - t0 < 30, err
    assert ("registers/wide.xlsx [sheet impoundments]: 'A1:XFD20000' is 20,000 rows by 16,384 columns as the workbook "
            "declares it, more than a register's sheet holds (at most 200 columns, 250,000 rows, 5,000,000 cells)") in err
    assert ("registers/far.xlsx [sheet impoundments]: 'A1:KN2' reaches 2 rows by 300 columns as read so far, more "
            "than a register's sheet holds") in err
    assert "registers/down.xlsx [sheet impoundments]: 'A1:A250001' reaches 250,001 rows by 0 columns as read so far" in err
    assert "registers/twice.xlsx: ' Impoundments ' names two sheets alike; give each sheet a name of its own" in err
    assert ("registers/bomb.xlsx: 'xl/sharedStrings.xml' unpacks to" in err and "times its packed size, as no "
            "spreadsheet's part does (at most 200: a zip bomb)" in err and "Traceback" not in err)
    con = connection.connect(loaded_db)
    assert snapshot(con) == before
    con.close()
    # its twin: the same rows, the sheet declaring its own size, load
    ok = tmp_path / "ok"
    (ok / "registers").mkdir(parents=True)
    _declaring(ok / "registers" / "wide.xlsx", "A1:M2", rows)
    code, _, err = run_cli("ingest", ok, "--db", loaded_db)
    assert code == 0, err


def test_shared_strings_are_counted_as_they_unpack_and_too_many_refused(tmp_path):
    # stored, not packed (no zip bomb), under the part's 16 MB: a million and one strings are refused,
    # a million taken (its twin), whatever prefix their tags carry
    import zipfile

    from pipeline.load.sheets import MAX_SHARED_STRINGS, workbook_problem

    def book(strings: int):
        path = tmp_path / f"{strings}.xlsx"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            z.writestr("xl/sharedStrings.xml", b"<x:sst>" + b"<x:si/>" * strings + b"</x:sst>")
        return path

    said = workbook_problem(book(MAX_SHARED_STRINGS + 1), "registers/b.xlsx")
    assert said is not None and said.message.startswith("holds more than 1,000,000 strings")
    assert workbook_problem(book(MAX_SHARED_STRINGS), "registers/b.xlsx") is None
