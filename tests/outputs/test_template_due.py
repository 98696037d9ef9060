"""A pound-keeper's workbook for the sample's November, filled in by the test as a keeper would
(day-first dates as text and as dates, amounts with Indian grouping), worked out by LibreOffice
Calc (the sheet "what is due"), then loaded: the fines and feeding the sheet shows due on each
release are the accounts' (int_releases.fine_due_r, feeding_due_r) for the same release, and a
release paid what the sheet shows is not short (REL-UNPAID stays silent on it), one paid a rupee
less is.

P02's November is the sample's own (three impoundments and release R-0015, taken out of the
sample's CSV files and typed into the workbook) and one release more, of N-2611-015; P01's
workbook lists M-2610-008, still in the pound on 01-11-2026, and releases it.

The sheet counts feeding days as the accounts do whether or not a case is carried in: run once
with the default reading (the day of impounding and the day of release both count), P02's copy
made without the accounts (no --db), and once with feeding_days = "nights", P02's copy made with
the accounts, in which no case of P02 is still held (the reading comes from the database, not
from a carried case)."""

import csv
import datetime as dt
import os
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from openpyxl import load_workbook

from pipeline.core.registers import DUE_SHEET, REVIEW_HELP_SHEET
from pipeline.outputs.due_sheet import DUE_FIRST

pytestmark = pytest.mark.calc
SAMPLE = Path(__file__).parents[2] / "data" / "sample"
MOVED = {"N-2611-015", "N-2611-023", "N-2611-024", "R-0015"}       # P02's November rows, typed by the keeper


def _calc(path: Path, out: Path) -> Path:
    """The workbook opened and saved by LibreOffice Calc, as a keeper's spreadsheet saves it (the
    formulas worked out and their results saved)."""
    return _calc_each([path], out)[0]


def _calc_each(paths: list[Path], out: Path, profile: Path | None = None) -> list[Path]:
    """Each workbook opened and saved by LibreOffice Calc as _calc does, by one start of Calc (each
    file is opened, worked out and saved on its own; their names differ). `profile`: Calc's user
    profile, kept from one start to the next as a keeper's is (default: a new one in out)."""
    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice Calc is needed"
    assert len({p.name for p in paths}) == len(paths), paths
    out.mkdir(parents=True, exist_ok=True)
    profile = profile or out / "profile"
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
                    "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), *map(str, paths)], check=True,
                   capture_output=True, timeout=180, env={**os.environ, "HOME": str(out)})
    saved = [out / p.name for p in paths]
    assert all(p.is_file() for p in saved), saved
    return saved


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _typed_as_a_keeper(row: dict, dates: tuple[str, ...]) -> dict:
    """A row of the sample's CSV as a keeper types it: dates day first with dashes, or as real dates."""
    out = dict(row)
    for i, name in enumerate(dates):
        if out.get(name):
            d, m, y = out[name].split("/")
            out[name] = dt.datetime(int(y), int(m), int(d)) if i % 2 else f"{d}-{m}-{y}"
    return out


def _fill(ws, rows: list[dict]) -> None:
    names = [c.value for c in ws[1]]
    for r, row in enumerate(rows, 2):
        for c, name in enumerate(names, 1):
            v = row.get(name)
            if v not in (None, ""):
                cell = ws.cell(r, c, v)
                if isinstance(v, str):
                    cell.data_type = "s"


def _due(path: Path) -> dict[str, tuple[Decimal, Decimal, int]]:
    ws = load_workbook(path, data_only=True)[DUE_SHEET]
    out = {}
    for row in ws.iter_rows(min_row=DUE_FIRST, max_col=12, values_only=True):
        if row[0]:
            out[row[0]] = (Decimal(str(row[9])), Decimal(str(row[10])), row[6])
    return out


def _indian(rupees: Decimal) -> str:
    whole, paise = f"{rupees:.2f}".split(".")
    head, tail = whole[:-3], whole[-3:]
    groups = []
    while head:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(groups + [tail]) + "." + paise


# Worked by hand, (fines due, feeding due, days) of each release under each reading:
# R-0015: N-2611-024, 1 cattle impounded 20-11, released 22-11 (P02 is in Nanjangud, whose own cattle row from
#   01-01-2026 wins over '*': fine 700, feeding 200): days 20, 21, 22 = 3, feeding 1 x 200 x 3 = 600.00 (what
#   R-0015 paid in the sample); by nights 2, 1 x 200 x 2 = 400.00. Fine 1 x 700 = 700.00 either way.
# R-0016: N-2611-015, impounded 25-11, released 27-11: 3 days, 1 x 200 x 3 = 600; by nights 2, 400. Fine 700.
# R-0017: M-2610-008, 2 cattle impounded 20-10 (Mysuru: '*' cattle row from 01-09-2026, fine 600, feeding 250),
#   released 03-11: 15 days (20-31 October is 12, 1-3 November 3), 2 x 250 x 15 = 7,500; by nights 14,
#   2 x 250 x 14 = 7,000. Fine 2 x 600 = 1,200.
DUE = {
    "days_or_part": {"R-0015": (Decimal("700"), Decimal("600"), 3), "R-0016": (Decimal("700"), Decimal("600"), 3),
                     "R-0017": (Decimal("1200"), Decimal("7500"), 15)},
    "nights": {"R-0015": (Decimal("700"), Decimal("400"), 2), "R-0016": (Decimal("700"), Decimal("400"), 2),
               "R-0017": (Decimal("1200"), Decimal("7000"), 14)},
}


@pytest.mark.parametrize("reading, p02_from_the_accounts", [
    pytest.param("days_or_part", False, id="days-P02-without-db"),
    pytest.param("nights", True, id="nights-P02-with-db-none-held"),
])
def test_a_keepers_november_works_out_what_the_accounts_say_is_due_and_loads(tmp_path, run_cli, reading,
                                                                             p02_from_the_accounts):
    params = tmp_path / "params.toml"
    params.write_text(f'feeding_days = "{reading}"\n')
    # the bundle the keepers' workbooks go into: the sample without the rows they type; the accounts
    # before them: without every row of those cases (a deposit, a sale) as well
    bundle, before = tmp_path / "mysuru", tmp_path / "before_november"
    shutil.copytree(SAMPLE, bundle)
    shutil.copytree(SAMPLE, before)
    typed = {}
    for path in sorted((bundle / "registers").glob("*.csv")):
        rows = _rows(path)
        if not rows:
            continue
        dates = {"impoundments": ("seized_on", "impounded_on"), "releases": ("released_on",)}.get(path.stem)
        key = {"impoundments": "case_id", "releases": "release_id"}.get(path.stem)
        of_moved = [bool(MOVED & {r.get("case_id"), r.get("release_id")}) for r in rows]
        typed_here = [bool(key) and r[key] in MOVED for r in rows]        # the rows the keepers type
        if key:
            typed[path.stem] = [_typed_as_a_keeper(r, dates) for r, t in zip(rows, typed_here, strict=True) if t]
        for folder, left_out in ((bundle, typed_here), (before, of_moved)):
            with (folder / "registers" / path.name).open("w", encoding="utf-8", newline="") as fh:
                w = csv.DictWriter(fh, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(r for r, out in zip(rows, left_out, strict=True) if not out)
    assert len(typed["impoundments"]) == 3 and len(typed["releases"]) == 1
    code, _, err = run_cli("run", before, "--out", tmp_path / "before", "--as-of", "2026-10-31", "--params", params)
    assert code == 0, err
    db = tmp_path / "before" / "pound.duckdb"

    made = {}
    for pound in ("P01", "P02"):
        out = tmp_path / f"registers_2026-11_{pound}.xlsx"
        accounts = ("--db", db) if pound == "P01" or p02_from_the_accounts else ("--params", params)
        code, printed, err = run_cli("template", "--bundle", bundle, "--pound", pound, "--month", "2026-11",
                                     *accounts, "--out", out)
        assert code == 0, err
        made[pound] = out
    # P01's copy lists the case still in its pound when November began, in the lists of cases too
    wb = load_workbook(made["P01"])
    carried = [r[0] for r in wb[DUE_SHEET].iter_rows(min_row=DUE_FIRST + 1, min_col=15, max_col=15, values_only=True) if r[0]]
    assert carried == ["M-2610-008"]
    help_ = wb[REVIEW_HELP_SHEET]
    cases = next(c for c in range(10, help_.max_column + 1) if help_.cell(1, c).value == "cases")
    assert help_.cell(2, cases).value == "M-2610-008"
    assert load_workbook(made["P02"])[DUE_SHEET].cell(DUE_FIRST + 1, 15).value is None     # P02's pound was empty

    # the keepers type their month; the releases' amounts are left to fill in from what is due
    releases = {
        "P02": typed["releases"] + [{"release_id": "R-0016", "case_id": "N-2611-015", "released_on": "27/11/2026",
                                     "head_count": 1, "basis": "s12_payment", "released_to": "Kempamma (owner)",
                                     "declaration_made": "yes", "receipt_signed": "yes"}],
        "P01": [{"release_id": "R-0017", "case_id": "M-2610-008", "released_on": dt.datetime(2026, 11, 3),
                 "head_count": 2, "basis": "s12_payment", "released_to": "Manjunatha (owner)",
                 "declaration_made": "no", "receipt_signed": "yes"}],
    }
    for r in releases["P02"]:
        r.pop("fines_paid", None), r.pop("charges_paid", None)
    # each pound's workbook is its own file throughout: both are worked out by one start of Calc, the
    # keeper's Calc (one profile) at each turn
    books = {}
    for pound, path in made.items():
        books[pound] = wb = load_workbook(path)
        if pound == "P02":
            _fill(wb["impoundments"], typed["impoundments"])
        _fill(wb["releases"], releases[pound])
        wb.save(path)
    worked = dict(zip(made, _calc_each(list(made.values()), tmp_path / "calc1", tmp_path / "calc_profile"), strict=True))
    for pound, path in made.items():
        due = _due(worked[pound])
        # the keeper takes what the sheet shows, typed with Indian grouping; the near miss, R-0016, a rupee less
        for r in releases[pound]:
            fines, feeding, _ = due[r["release_id"]]
            short = Decimal(1) if r["release_id"] == "R-0016" else Decimal(0)
            r["fines_paid"], r["charges_paid"] = _indian(fines), _indian(feeding - short)
        _fill(books[pound]["releases"], releases[pound])
        books[pound].save(path)
    shown = {}
    for saved in _calc_each(list(made.values()), tmp_path / "calc2", tmp_path / "calc_profile"):
        shown.update(_due(saved))
        shutil.copy(saved, bundle / "registers" / saved.name)
    assert shown == DUE[reading]           # worked by hand above

    code, _, err = run_cli("run", bundle, "--out", tmp_path / "after", "--as-of", "2026-11-30", "--params", params)
    assert code == 0, err
    con = duckdb.connect(str(tmp_path / "after" / "pound.duckdb"), read_only=True)
    accounts = {r[0]: (Decimal(r[1]) / 100, Decimal(r[2]) / 100) for r in con.execute(
        "SELECT release_id, fine_due_r, feeding_due_r FROM int_releases WHERE release_id IN ('R-0015', 'R-0016', 'R-0017')").fetchall()}
    # the days the accounts charged: their feeding due over the heads and the rate they took
    days = dict(con.execute("SELECT r.release_id, r.feeding_due_r // (r.head_count * c.feeding_per_head_per_day) "
                            "FROM int_releases r JOIN int_cases c USING (case_id) "
                            "WHERE r.release_id IN ('R-0015', 'R-0016', 'R-0017')").fetchall())
    unpaid = con.execute("SELECT subject_id FROM findings WHERE rule_id = 'REL-UNPAID' "
                         "AND subject_id IN ('R-0015', 'R-0016', 'R-0017')").fetchall()
    con.close()
    assert accounts == {k: v[:2] for k, v in shown.items()}
    assert days == {k: v[2] for k, v in shown.items()}
    # what the sheet shows is what the Act asks: paid, the release is not short; a rupee less, it is
    assert unpaid == [("R-0016",)]


def test_a_reseizures_dues_are_left_to_the_office_and_its_plain_twin_is_worked_out(tmp_path, run_cli):
    """Third reading R11: a re-seizure owes what the first case's protest deposit left unpaid of its fines
    and feeding, which the workbook cannot know; its row shows 'from the office' (never 0), whether the
    re-seizure is typed this month or still in the pound (N-2610-021, re-seizing N-2609-020, carried into
    P02's November); a plain case typed beside it is worked out."""
    from pipeline.outputs.due_sheet import FROM_OFFICE

    bundle = tmp_path / "mysuru"
    shutil.copytree(SAMPLE, bundle)
    sales = bundle / "registers" / "sales.csv"             # S-007 sold N-2610-021 on 26-10: here it is not yet sold
    sales.write_text("".join(line for line in sales.read_text(encoding="utf-8").splitlines(keepends=True)
                             if not line.startswith("S-007,")), encoding="utf-8")
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "acc", "--as-of", "2026-10-31")
    assert code == 0, err
    out = tmp_path / "registers_2026-11_P02.xlsx"
    code, _, err = run_cli("template", "--bundle", bundle, "--pound", "P02", "--month", "2026-11",
                           "--db", tmp_path / "acc" / "pound.duckdb", "--out", out)
    assert code == 0, err
    wb = load_workbook(out)
    carried = {r[0]: r[6] for r in wb[DUE_SHEET].iter_rows(min_row=DUE_FIRST + 1, min_col=15, max_col=21,
                                                           values_only=True) if r[0]}
    assert carried.get("N-2610-021") == "N-2609-020"
    assert "pays no fine" not in " ".join(str(wb[DUE_SHEET].cell(r, 1).value) for r in (1, 2, 3))
    case = {"pound_id": "P02", "impounded_on": "25-11-2026", "animal_class": "cattle", "head_count": 1,
            "owner_name": "Mahadevamma"}
    _fill(wb["impoundments"], [{**case, "case_id": "N-2611-090", "reseizure_of": "N-2609-020"},
                               {**case, "case_id": "N-2611-091"}])
    _fill(wb["releases"], [{"release_id": f"R-009{i}", "case_id": c, "released_on": "27-11-2026", "head_count": 1,
                            "basis": "s12_payment"} for i, c in enumerate(("N-2610-021", "N-2611-090", "N-2611-091"))])
    wb.save(out)
    ws = load_workbook(_calc(out, tmp_path / "calc"), data_only=True)[DUE_SHEET]
    shown = {r[0]: r[9:12] for r in ws.iter_rows(min_row=DUE_FIRST, max_col=12, values_only=True) if r[0]}
    assert shown["R-0090"] == shown["R-0091"] == (FROM_OFFICE,) * 3
    # N-2611-091: 1 cattle in Nanjangud (fine 700, feeding 200), 25-11 to 27-11 = 3 days: 700 + 600 = 1,300
    assert [Decimal(str(v)) for v in shown["R-0092"]] == [Decimal(700), Decimal(600), Decimal(1300)]
