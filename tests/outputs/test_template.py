"""pound template: the register workbook a pound-keeper fills in, read back with openpyxl and in
LibreOffice Calc, filled with good rows (it loads, the cases reach the accounts) and with a bad row
(rejected naming sheet, row, column and value)."""

import contextlib
import csv
import dataclasses
import datetime as dt
import io
import shutil
import zipfile
from pathlib import Path

import pytest
from calc_served import XLSX
from openpyxl import load_workbook

from pipeline.core.registers import BY_NAME, COUNT, DATE, ENUM, FLAG, MONEY, REVIEW_HELP_SHEET, TIME, Column
from pipeline.outputs.bundle_lists import SHEETS
from pipeline.outputs.cell_checks import AMOUNT_PARTS, amount_check, date_check, for_cell
from pipeline.outputs.template import LAST_ROW, list_of
from pipeline.outputs.template_help import column_help


@pytest.fixture(scope="module")
def made_template(tmp_path_factory):
    """`pound template --bundle data/sample`, run once for the module (read only: tests take `template`)."""
    from pipeline.cli import main

    out = tmp_path_factory.mktemp("template") / "registers_2026-11.xlsx"
    sample = Path(__file__).resolve().parents[2] / "data" / "sample"
    printed, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(err):
        code = main(["template", "--bundle", str(sample), "--out", str(out)])
    assert code == 0 and printed.getvalue().strip() == str(out), err.getvalue()
    return out


@pytest.fixture
def template(tmp_path, made_template):
    """The sample's workbook as `pound template` made it (made_template), a copy of the test's own to fill in."""
    return Path(shutil.copy(made_template, tmp_path / made_template.name))


def _csv(path):
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _lists(wb):
    """Each pick-list of the help sheet: its name (row 1) and its values below."""
    ws = wb[REVIEW_HELP_SHEET]
    out = {}
    for c in range(10, ws.max_column + 1):
        if ws.cell(1, c).value:
            out[ws.cell(1, c).value] = [ws.cell(r, c).value for r in range(2, ws.max_row + 1)
                                        if ws.cell(r, c).value is not None]
    return out


def _listed(wb, dv):
    """The values a list validation offers, read from the range it names."""
    sheet, cells = dv.formula1.rsplit("!", 1)
    ws = wb[sheet.strip("'")]
    first, last = cells.replace("$", "").split(":")
    return [c.value for row in ws[first:last] for c in row if c.value is not None]


def _validations(ws):
    """Column letter -> its one data validation (every column has exactly one, over rows 2 to the last)."""
    out = {}
    for dv in ws.data_validations.dataValidation:
        for rng in dv.sqref.ranges:
            assert rng.min_row == 2 and rng.min_col == rng.max_col, (ws.title, str(rng))
            letter = rng.coord.split(":")[0].rstrip("0123456789")
            assert letter not in out, (ws.title, letter)
            out[letter] = (dv, rng.max_row)
    return out


def test_sheets_headers_checks_and_help_read_back(template):
    wb = load_workbook(template)
    assert wb.sheetnames == [*SHEETS, REVIEW_HELP_SHEET]
    assert all(wb[s].sheet_state == "visible" for s in wb.sheetnames)
    for name in SHEETS:
        reg, ws = BY_NAME[name], wb[name]
        assert [c.value for c in ws[1]] == reg.names              # the loader's header, nothing else
        assert ws.max_row == 1 and ws.freeze_panes == "A2"
        checks = _validations(ws)
        assert len(checks) == len(reg.columns)
        for i, col in enumerate(reg.columns):
            letter = ws.cell(1, i + 1).column_letter
            dv, last = checks[letter]
            assert last == LAST_ROW and dv.showInputMessage and dv.prompt and dv.promptTitle == col.name[:32]
            h = column_help(reg, col)
            note = ws.cell(1, i + 1).comment.text
            assert note.startswith(col.name) and h.what in note
            assert (f"The Act: {h.section}." in note) == bool(h.section)
            assert (f"Example: {h.example}" in note) == bool(h.example)
            assert (f"({h.kannada})" in note) == bool(h.kannada)
            if list_of(col):
                assert dv.type == "list" and dv.formula1.startswith("'how to fill in'!$")
            elif col.kind == DATE:
                # the check is the sheet's name date_ok, a formula of the cell itself (test_template_checks.py)
                assert (dv.type, dv.formula1) == ("custom", "date_ok")
                assert ws.defined_names["date_ok"].attr_text == for_cell(date_check(), f"'{name}'!A1")
                assert ws.column_dimensions[letter].number_format == "dd-mm-yyyy"
                assert "05-11-2026" in dv.error and "2026-11-05" in dv.error
            elif col.kind == MONEY:
                assert (dv.type, dv.formula1) == ("custom", "amount_ok")
                assert ws.defined_names["amount_ok"].attr_text == for_cell(amount_check(0), f"'{name}'!A1")
                for part, formula in AMOUNT_PARTS.items():
                    assert ws.defined_names[part].attr_text == for_cell(formula, f"'{name}'!A1")
                assert len(ws.defined_names["amount_ok"].attr_text) < 8192      # Excel's most for a formula
                assert "1,20,000" in dv.error
            elif col.kind == COUNT:
                assert (dv.type, dv.operator, dv.formula1) == ("whole", "greaterThanOrEqual", str(col.minimum or 0))
            elif col.kind == TIME:
                assert dv.type == "time"
            else:
                assert dv.type is None and not dv.showErrorMessage        # any text
            if col.name == "taluk":         # a removal order of a taluk with no pound: warned, not refused
                assert dv.errorStyle == "warning" and dv.error.startswith("This taluk is not one of")
            elif col.refers_to == "impoundments.case_id":    # a case of an earlier month: warned, not refused
                assert dv.errorStyle == "warning" and dv.error.startswith("This case is not in the impoundments")
            elif dv.type:
                assert dv.showErrorMessage and dv.errorStyle == "stop" and dv.error.startswith(
                    ("Choose one", "Write a"))
    # a head count is at least 1 on an impoundment (a case brings in at least one animal)
    imp = _validations(wb["impoundments"])
    assert imp["I"][0].formula1 == "1" and wb["impoundments"]["I1"].value == "head_count"
    # a listed code is written with its meaning, the list itself read from registers.py
    assert "s16_protest (delivered under protest)" in wb["releases"]["E1"].comment.text
    # the Kannada beside the English, never in the header row the loader reads
    assert "ಪ್ರಕರಣ ಸಂಖ್ಯೆ" in wb["impoundments"]["A1"].comment.text
    help_ = [[c.value for c in r] for r in wb[REVIEW_HELP_SHEET].iter_rows(max_col=7)]
    # the column's Kannada title, and under it what to write, in Kannada (template_help_kn.py)
    assert ["", "case_id", "ಪ್ರಕರಣ ಸಂಖ್ಯೆ\nಒಬ್ಬ ಮಾಲೀಕರ ಒಂದು ವರ್ಗದ ಪ್ರಾಣಿಗಳನ್ನು ತಂದಾಗ ನೀಡುವ ಒಂದು ಸಂಖ್ಯೆ"] == [
        v or "" for v in help_[help_.index(["impoundments", None, "ದೊಡ್ಡಿಗೆ ಸೇರಿಸಿದ ಪ್ರಾಣಿಗಳು",
                                            BY_NAME["impoundments"].what, "s.10, s.12", None, None]) + 1][:3]]
    assert "ಪ್ರಾಣಿಗಳನ್ನು ಕೊಂಡವಾಡೆಗೆ ತಂದ ದಿನಾಂಕ" in wb["impoundments"]["D1"].comment.text
    text = " ".join(str(r[0]) for r in help_ if r[0])
    assert "To correct a row: write it again, with the same number" in text and "void = yes" in text


def test_the_workbook_holds_no_macro_no_formula_and_no_hidden_sheet(template):
    with zipfile.ZipFile(template) as zf:
        names = zf.namelist()
        types = zf.read("[Content_Types].xml").decode()
    assert not any("vba" in n.lower() for n in names) and "macroEnabled" not in types
    wb = load_workbook(template)
    assert not wb.defined_names          # a sheet's names are its checks (date_ok, amount_ok) alone
    assert {n for ws in wb.worksheets for n in ws.defined_names} <= {"date_ok", "amount_ok", *AMOUNT_PARTS}
    for ws in wb.worksheets:
        assert ws.sheet_state == "visible"
        formulas = [c for row in ws.iter_rows() for c in row if c.data_type == "f"]
        if ws.title == REVIEW_HELP_SHEET:       # the list of cases takes in the impoundments sheet's case_id
            assert formulas and all(f.value.startswith('=IF(impoundments!$A') for f in formulas)
        else:                                   # a register sheet holds values alone
            assert not formulas, ws.title


def test_twin_a_formula_would_be_seen(tmp_path, template):
    wb = load_workbook(template)
    wb["impoundments"]["A2"] = "=1+1"
    wb.save(tmp_path / "f.xlsx")
    ws = load_workbook(tmp_path / "f.xlsx")["impoundments"]
    assert [c.coordinate for row in ws.iter_rows() for c in row if c.data_type == "f"] == ["A2"]


def test_every_pick_list_equals_the_file_it_came_from(template, sample_bundle):
    wb = load_workbook(template)
    lists = _lists(wb)
    pounds = _csv(sample_bundle / "reference" / "pounds.csv")
    rates = _csv(sample_bundle / "reference" / "rates.csv")
    assert lists["pound_id"] == [p["pound_id"] for p in pounds] == ["P01", "P02", "P03"]
    assert lists["animal_class"] == list(dict.fromkeys(r["animal_class"] for r in rates))
    assert lists["taluk"] == list(dict.fromkeys(p["taluk"] for p in pounds))
    assert lists["yes_no"] == ["yes", "no"]
    for name in SHEETS:
        reg, ws = BY_NAME[name], wb[name]
        checks = _validations(ws)
        for i, col in enumerate(reg.columns):
            dv = checks[ws.cell(1, i + 1).column_letter][0]
            if col.kind == ENUM and col.name != "animal_class":
                assert _listed(wb, dv) == list(col.values), (name, col.name)     # the register's declaration
            elif col.kind == FLAG:
                assert _listed(wb, dv) == ["yes", "no"]
            elif col.name in ("pound_id", "animal_class", "taluk"):
                assert _listed(wb, dv) == lists[col.name]


def test_a_pound_keepers_copy_lists_that_pound_alone(tmp_path, run_cli, sample_bundle):
    out = tmp_path / "p02.xlsx"
    assert run_cli("template", "--bundle", sample_bundle, "--out", out, "--pound", "P02")[0] == 0
    lists = _lists(load_workbook(out))
    assert lists["pound_id"] == ["P02"] and lists["taluk"] == ["Nanjangud"]
    assert "(pound P02)" in load_workbook(out)[REVIEW_HELP_SHEET]["A1"].value
    code, _, err = run_cli("template", "--bundle", sample_bundle, "--out", tmp_path / "x.xlsx", "--pound", "P2")
    assert code == 1 and err.startswith("pound: --pound P2 is not in the bundle's reference/pounds.csv; did you mean")
    assert not (tmp_path / "x.xlsx").exists()


def test_a_workbook_is_never_written_over_and_its_name_ends_in_xlsx(tmp_path, run_cli, sample_bundle, template):
    before = template.read_bytes()
    code, _, err = run_cli("template", "--bundle", sample_bundle, "--out", template)
    assert code == 1 and "exists; a workbook that may be filled in is never written over" in err
    assert template.read_bytes() == before
    code, _, err = run_cli("template", "--bundle", sample_bundle, "--out", tmp_path / "r.csv")
    assert code == 1 and "must end in .xlsx" in err
    code, _, err = run_cli("template", "--bundle", tmp_path / "none", "--out", tmp_path / "n.xlsx")
    assert code == 1 and "does not exist" in err


def test_a_zipped_bundle_gives_the_same_lists(tmp_path, run_cli, sample_bundle, template):
    z = tmp_path / "b.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in sample_bundle.rglob("*.csv"):
            zf.write(f, f.relative_to(sample_bundle).as_posix())
    assert run_cli("template", "--bundle", z, "--out", tmp_path / "z.xlsx")[0] == 0
    assert _lists(load_workbook(tmp_path / "z.xlsx")) == _lists(load_workbook(template))


def test_a_column_declared_later_reaches_the_workbook_with_help(tmp_path, monkeypatch, sample_bundle):
    # a column added to core/registers.py, with no words of its own in template_help.py, has its header, its
    # check and help drawn from its declaration
    from pipeline.outputs import template as module

    reg = BY_NAME["impoundments"]
    added = Column("escaped_on", "date", optional=True, what="the day an animal escaped from the pound")
    monkeypatch.setitem(BY_NAME, "impoundments", dataclasses.replace(reg, columns=reg.columns + (added,)))
    out = module.write_template(sample_bundle, tmp_path / "n.xlsx")
    ws = load_workbook(out)["impoundments"]
    assert ws.cell(1, ws.max_column).value == "escaped_on"
    note = ws.cell(1, ws.max_column).comment.text
    assert "the day an animal escaped from the pound" in note and "Example: 05-11-2026" in note
    assert "The Act: s.10, s.12." in note                         # the register's sections


def _fill(path, rows):
    wb = load_workbook(path)
    for sheet, row in rows:
        wb[sheet].append(row)
    wb.save(path)


GOOD = [
    ("impoundments", ["M-2611-900", "P01", dt.datetime(2026, 11, 2), dt.datetime(2026, 11, 2), dt.time(9, 30),
                      "Hebbal tank bund", "MCC cattle squad", "cattle", 2, "two bullocks", "O999", "Ramu", "Hebbal"]),
    ("releases", ["R-0900", "M-2611-900", dt.datetime(2026, 11, 3), 2, "s12_payment", "Ramu (owner)", 1200, 1000,
                  None, "no", None, "yes", None]),
]


def test_filled_with_good_rows_it_loads_as_it_is_and_the_case_reaches_the_accounts(tmp_path, run_cli, sample_bundle,
                                                                                   template):
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    _fill(template, GOOD)
    shutil.copy(template, bundle / "registers" / template.name)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "o", "--as-of", "2026-11-30")
    assert code == 0, err
    assert "passed over" not in err                     # the help sheet is the loader's to pass over quietly
    case = {r["case_id"]: r for r in _csv(tmp_path / "o" / "case_accounts.csv")}["M-2611-900"]
    # P01 is in Mysuru taluk: the '*' cattle rate from 2026-09-01, fine Rs 600 and feeding Rs 250 a head a day.
    # fine 2 x 600 = 1,200.00; feeding 2 heads x 2 days (2 and 3 November) x 250 = 1,000.00; released 3 November
    assert (case["fine_due"], case["feeding_due"], case["status"], case["closed_on"]) == (
        "1200.00", "1000.00", "released", "2026-11-03")
    assert case["source"] == f"registers/{template.name} [sheet impoundments] row 2"


def test_filled_with_a_bad_row_it_is_rejected_naming_sheet_row_column_and_value(tmp_path, run_cli, sample_bundle,
                                                                                template):
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    # typed in another program, past the cell's check: a head count of -1
    _fill(template, [GOOD[0], ("impoundments", ["M-2611-901", "P01", None, dt.datetime(2026, 11, 4), None, None,
                                                None, "cattle", -1])])
    shutil.copy(template, bundle / "registers" / template.name)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "o", "--as-of", "2026-11-30")
    assert code == 2 and not (tmp_path / "o").exists()
    assert (f"  registers/{template.name} [sheet impoundments], row 3, column head_count: '-1' is below 1; "
            "expected a whole number of at least 1") in err.splitlines()


@pytest.mark.calc
def test_libreoffice_calc_opens_it_with_its_lists_intact(tmp_path, template, calc):
    out = tmp_path / "calc"
    calc.convert([template], out, XLSX)          # opened and saved by Calc (the test process's: conftest.py)
    mine, calc = load_workbook(template), load_workbook(out / template.name)
    assert calc.sheetnames == mine.sheetnames
    assert _lists(calc) == _lists(mine)
    for name in SHEETS:
        assert [c.value for c in calc[name][1]] == BY_NAME[name].names
        ours, theirs = _validations(mine[name]), _validations(calc[name])
        assert theirs.keys() == ours.keys(), name
        for letter, (dv, _) in ours.items():
            got = theirs[letter][0]
            assert (got.type, got.error, got.prompt) == (dv.type, dv.error, dv.prompt), (name, letter)
            if dv.type == "custom":         # Calc writes a sheet's own name with the sheet's name before it
                assert got.formula1 in (dv.formula1, f"{name}!{dv.formula1}"), (name, letter)
                assert dv.formula1 in calc[name].defined_names, (name, letter)
            elif dv.type:
                assert got.formula1 == dv.formula1 and (got.formula2 == dv.formula2 or dv.formula2 is None), (name, letter)
            if dv.type == "list":
                assert _listed(calc, got) == _listed(mine, dv)
            assert calc[name][f"{letter}1"].comment.text.startswith(mine[name][f"{letter}1"].comment.text[:20])


def test_one_file_a_pound_a_month_named_so_and_its_options_refused_in_one_line(tmp_path, run_cli, sample_bundle,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, printed, err = run_cli("template", "--bundle", sample_bundle, "--pound", "P02", "--month", "2026-11")
    assert code == 0, err
    assert printed.strip() == "registers_2026-11_P02.xlsx" and (tmp_path / "registers_2026-11_P02.xlsx").is_file()
    help_ = " ".join(str(r[0]) for r in load_workbook(tmp_path / printed.strip())[REVIEW_HELP_SHEET].iter_rows(
        max_col=1, values_only=True) if r[0])
    assert "registers/ folder named for its month and its pound, registers_2026-11_P02.xlsx" in help_
    for args, says in ((["--pound", "P01", "--month", "2026-13"], "'2026-13' is not a month written YYYY-MM"),
                       (["--pound", "P01"], "give --out, or --pound and --month"),
                       (["--month", "2026-11", "--db", "x.duckdb"], "--db gives the cases still in a pound"),
                       (["--ledger", "local_fund", "--pound", "P01", "--month", "2026-11"], "leave out --pound"),
                       (["--pound", "P01", "--month", "2026-11", "--db", sample_bundle / "reference" / "pounds.csv", "--params",
                         tmp_path / "p.toml"], "the database's own readings are used")):
        code, _, err = run_cli("template", "--bundle", sample_bundle, *args)
        assert code != 0 and says in err and len(err.strip().splitlines()) == 1, (args, err)


@pytest.mark.parametrize("reading, days", [("days_or_part", "=IF($A5=\"\",\"\",MAX($C5-$E5+1,0))"),
                                           ("nights", "=IF($A5=\"\",\"\",MAX($C5-$E5,0))")])
def test_without_the_accounts_the_due_sheet_counts_days_as_the_run_s_parameters_will(tmp_path, run_cli, sample_bundle,
                                                                                     reading, days):
    # no --db: the parameters file pound run is given says how feeding days are counted (LibreOffice works the
    # counts out in test_template_due.py); without it, the default reading (both ends count)
    params = tmp_path / "params.toml"
    params.write_text(f'feeding_days = "{reading}"\n')
    for given, out in ((("--params", params), "given.xlsx"), ((), "default.xlsx")):
        code, _, err = run_cli("template", "--bundle", sample_bundle, "--pound", "P01", "--month", "2026-11",
                               *given, "--out", tmp_path / out)
        assert code == 0, err
    due = {out: load_workbook(tmp_path / out)["what is due"] for out in ("given.xlsx", "default.xlsx")}
    assert due["given.xlsx"]["G5"].value == days
    assert due["default.xlsx"]["G5"].value == "=IF($A5=\"\",\"\",MAX($C5-$E5+1,0))"
    said = " ".join(str(c.value) for c in due["given.xlsx"]["A"][:3])
    assert ("the day of release does not count" in said) == (reading == "nights")


def test_the_fourth_readings_sales_columns_are_in_the_workbook_and_load_from_it(tmp_path, sample_bundle, template):
    # R18 and R19: the appearance of the owner (s.17(1)) and the balance he took, with his receipt (s.17(3), (4))
    ws = load_workbook(template)["sales"]
    heads = [c.value for c in ws[1]]
    new = ["owner_appeared_on", "appeared_person", "balance_paid_on", "balance_receipt_signed"]
    assert all(h in heads for h in new)
    reg = BY_NAME["sales"]
    for col in (c for c in reg.columns if c.name in new):
        assert column_help(reg, col).what in ws.cell(1, heads.index(col.name) + 1).comment.text
    row = dict.fromkeys(heads)
    row.update(sale_id="S-900", case_id="M-2611-900", path="s17_refusal", sale_on=dt.datetime(2026, 11, 3), head_offered=2,
               head_sold=2, bid_amount=9000, accepted="yes", conducted_by="SO01", balance_paid=5000,
               owner_appeared_on=dt.datetime(2026, 11, 4), appeared_person="Ramu", balance_paid_on=dt.datetime(2026, 11, 5),
               balance_receipt_signed="no")
    _fill(template, [GOOD[0], ("sales", [row[h] for h in heads])])
    bundle = tmp_path / "b"
    shutil.copytree(sample_bundle, bundle)
    shutil.copy(template, bundle / "registers" / template.name)
    from helpers import load
    con, _ = load(bundle)
    assert con.execute("SELECT owner_appeared_on, appeared_person, balance_paid_on, balance_receipt_signed FROM sales "
                       "WHERE sale_id = 'S-900'").fetchall() == [(dt.date(2026, 11, 4), "Ramu", dt.date(2026, 11, 5), "no")]
    # the sample's own sales.csv has none of the four columns: they load blank
    assert con.execute("SELECT count(*) FROM sales WHERE sale_id <> 'S-900' AND (owner_appeared_on IS NOT NULL "
                       "OR appeared_person IS NOT NULL OR balance_paid_on IS NOT NULL OR balance_receipt_signed IS NOT NULL)"
                       ).fetchone() == (0,)


def test_every_column_of_the_keepers_workbook_says_in_kannada_what_to_write():
    """Issue 54 item 5: each column of the keeper's sheets has its help in Kannada beside the English
    (template_help_kn.py), so a column added to a register without it is noticed here, not by a keeper."""
    from pipeline.outputs.bundle_lists import SHEETS
    from pipeline.outputs.template_help_kn import what_kannada
    missing = [f"{name}.{col.name}" for name in SHEETS for col in BY_NAME[name].columns
               if not what_kannada(name, col.name)]
    assert missing == []
