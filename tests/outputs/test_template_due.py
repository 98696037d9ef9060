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
import shutil
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
from calc_served import XLSX
from openpyxl import load_workbook

from pipeline.core.registers import DUE_SHEET, REVIEW_HELP_SHEET
from pipeline.outputs.due_sheet import DUE_FIRST

pytestmark = pytest.mark.calc
SAMPLE = Path(__file__).parents[2] / "data" / "sample"
MOVED = {"N-2611-015", "N-2611-023", "N-2611-024", "R-0015"}       # P02's November rows, typed by the keeper


def _calc_each(calc, paths: list[Path], out: Path) -> list[Path]:
    """Each workbook opened and saved by LibreOffice Calc, as a keeper's spreadsheet saves it (the
    formulas worked out and their results saved), by the test process's Calc (conftest.py: each file
    is opened, worked out and saved on its own; their names differ). The keeper's Calc keeps its
    profile from one turn to the next, as this one does."""
    assert len({p.name for p in paths}) == len(paths), paths
    saved = calc.convert(paths, out, XLSX)
    assert saved == [out / p.name for p in paths] and all(p.is_file() for p in saved), saved
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


READINGS = {"days-P02-without-db": ("days_or_part", False), "nights-P02-with-db-none-held": ("nights", True)}


def _cli(*args) -> tuple[int, str]:
    from shared import quietly

    from pipeline.cli import main

    return quietly(main, [str(a) for a in args])


def _a_keepers_november(tmp_path: Path, reading: str, p02_from_the_accounts: bool) -> dict:
    """The bundle, the accounts before November and the two pounds' workbooks, filled as the keepers type
    their month, the releases' amounts left to fill in from what is due (not yet worked out by Calc)."""
    tmp_path.mkdir()
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
    state = {"params": params, "bundle": bundle, "typed": typed, "made": {}, "blank": {}, "said": []}
    code, err = _cli("run", before, "--out", tmp_path / "before", "--as-of", "2026-10-31", "--params", params)
    state["said"].append(("run before November", code, err))
    if code:
        return state
    db = tmp_path / "before" / "pound.duckdb"
    for pound in ("P01", "P02"):
        out = tmp_path / f"registers_2026-11_{pound}.xlsx"
        accounts = ("--db", db) if pound == "P01" or p02_from_the_accounts else ("--params", params)
        code, err = _cli("template", "--bundle", bundle, "--pound", pound, "--month", "2026-11", *accounts, "--out", out)
        state["said"].append((f"template {pound}", code, err))
        if code:
            return state
        state["made"][pound] = out
        state["blank"][pound] = shutil.copy(out, tmp_path / f"blank_{pound}.xlsx")     # as the template made it

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
    books = {}
    for pound, path in state["made"].items():
        books[pound] = wb = load_workbook(path)
        if pound == "P02":
            _fill(wb["impoundments"], typed["impoundments"])
        _fill(wb["releases"], releases[pound])
        wb.save(path)
    state.update(releases=releases, books=books)
    return state


def _paid_as_shown(state: dict, worked: dict[str, Path]) -> None:
    """The keeper takes what the sheet (worked out by Calc) shows, typed with Indian grouping; the near
    miss, R-0016, a rupee less."""
    for pound, path in state["made"].items():
        due = _due(worked[pound])
        for r in state["releases"][pound]:
            fines, feeding, _ = due[r["release_id"]]
            short = Decimal(1) if r["release_id"] == "R-0016" else Decimal(0)
            r["fines_paid"], r["charges_paid"] = _indian(fines), _indian(feeding - short)
        _fill(state["books"][pound]["releases"], state["releases"][pound])
        state["books"][pound].save(path)


def _reseizure(tmp_path: Path) -> dict:
    """P02's November workbook made from the accounts with N-2610-021 (re-seizing N-2609-020) still in the
    pound, a re-seizure typed this month and a plain case beside it, their releases to be worked out."""
    tmp_path.mkdir()
    bundle = tmp_path / "mysuru"
    shutil.copytree(SAMPLE, bundle)
    sales = bundle / "registers" / "sales.csv"             # S-007 sold N-2610-021 on 26-10: here it is not yet sold
    sales.write_text("".join(line for line in sales.read_text(encoding="utf-8").splitlines(keepends=True)
                             if not line.startswith("S-007,")), encoding="utf-8")
    state = {"said": []}
    code, err = _cli("run", bundle, "--out", tmp_path / "acc", "--as-of", "2026-10-31")
    state["said"].append(("run", code, err))
    if code:
        return state
    out = tmp_path / "registers_2026-11_P02.xlsx"
    code, err = _cli("template", "--bundle", bundle, "--pound", "P02", "--month", "2026-11",
                     "--db", tmp_path / "acc" / "pound.duckdb", "--out", out)
    state["said"].append(("template", code, err))
    if code:
        return state
    state["blank"] = shutil.copy(out, tmp_path / "blank_P02.xlsx")       # as the template made it
    wb = load_workbook(out)
    case = {"pound_id": "P02", "impounded_on": "25-11-2026", "animal_class": "cattle", "head_count": 1,
            "owner_name": "Mahadevamma"}
    _fill(wb["impoundments"], [{**case, "case_id": "N-2611-090", "reseizure_of": "N-2609-020"},
                               {**case, "case_id": "N-2611-091"}])
    _fill(wb["releases"], [{"release_id": f"R-009{i}", "case_id": c, "released_on": "27-11-2026", "head_count": 1,
                            "basis": "s12_payment"} for i, c in enumerate(("N-2610-021", "N-2611-090", "N-2611-091"))])
    wb.save(out)
    state["made"] = out
    return state


def _calc_as_named(calc, files: dict[str, Path], out: Path) -> dict[str, Path]:
    """Each workbook worked out by Calc as _calc_each does, all in one request: {key: the file Calc
    saved}. The workbooks share names (each test's registers_2026-11_P01.xlsx), so each is handed to
    Calc as a copy named by its key, and what Calc saved is given back under the workbook's own name."""
    named = out / "in"
    named.mkdir(parents=True)
    copies = {k: shutil.copy(p, named / f"{k}-{p.name}") for k, p in files.items()}
    saved = dict(zip(copies, _calc_each(calc, list(copies.values()), out), strict=True))
    back = {}
    for k, p in files.items():
        (out / k).mkdir()
        back[k] = Path(shutil.copy(saved[k], out / k / p.name))
    return back


@pytest.fixture(scope="module")
def worked(tmp_path_factory, calc):
    """Every workbook of this module's tests, each made in a folder of its own, worked out by Calc as
    a keeper's spreadsheet works them out: both keepers' Novembers (the two readings) and the
    re-seizure's, by the test process's Calc (conftest.py: the keeper's Calc, one profile, at each
    turn), all of a turn in one request."""
    root = tmp_path_factory.mktemp("due")
    months = {name: _a_keepers_november(root / name, *reading) for name, reading in READINGS.items()}
    reseizure = _reseizure(root / "reseizure")
    first = {f"{name}-{pound}": path for name, state in months.items() for pound, path in state["made"].items()
             if "releases" in state}
    if "made" in reseizure:
        first["reseizure"] = reseizure["made"]
    done = _calc_as_named(calc, first, root / "calc1")
    if "made" in reseizure:
        reseizure["worked"] = done["reseizure"]
    second = {}
    for name, state in months.items():
        if "releases" in state:
            state["worked1"] = {pound: done[f"{name}-{pound}"] for pound in state["made"]}
            _paid_as_shown(state, state["worked1"])
            second.update({f"{name}-{pound}": path for pound, path in state["made"].items()})
    done = _calc_as_named(calc, second, root / "calc2") if second else {}
    for name, state in months.items():
        state["worked2"] = {pound: done[f"{name}-{pound}"] for pound in state["made"] if f"{name}-{pound}" in done}
    return {"months": months, "reseizure": reseizure}


def _said(state: dict) -> None:
    for step, code, err in state["said"]:
        assert code == 0, (step, err)


@pytest.mark.parametrize("name", list(READINGS))
def test_a_keepers_november_works_out_what_the_accounts_say_is_due_and_loads(tmp_path, run_cli, worked, name):
    reading, _ = READINGS[name]
    state = worked["months"][name]
    _said(state)                                   # the accounts before November ran; each template was made
    typed, made, bundle, params = state["typed"], state["blank"], state["bundle"], state["params"]
    assert len(typed["impoundments"]) == 3 and len(typed["releases"]) == 1
    # P01's copy lists the case still in its pound when November began, in the lists of cases too
    wb = load_workbook(made["P01"])
    carried = [r[0] for r in wb[DUE_SHEET].iter_rows(min_row=DUE_FIRST + 1, min_col=15, max_col=15, values_only=True) if r[0]]
    assert carried == ["M-2610-008"]
    help_ = wb[REVIEW_HELP_SHEET]
    cases = next(c for c in range(10, help_.max_column + 1) if help_.cell(1, c).value == "cases")
    assert help_.cell(2, cases).value == "M-2610-008"
    assert load_workbook(made["P02"])[DUE_SHEET].cell(DUE_FIRST + 1, 15).value is None     # P02's pound was empty

    # each pound's workbook is its own file throughout, worked out by Calc (fixture `worked`) once with the
    # releases' amounts left blank, then again with them typed from what the sheet showed
    shown = {}
    for saved in state["worked2"].values():
        shown.update(_due(saved))
        shutil.copy(saved, bundle / "registers" / saved.name)
    assert sorted(p.name for p in (bundle / "registers").glob("*.xlsx")) == [
        "registers_2026-11_P01.xlsx", "registers_2026-11_P02.xlsx"]
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


def test_a_reseizures_dues_are_left_to_the_office_and_its_plain_twin_is_worked_out(worked):
    """Third reading R11: a re-seizure owes what the first case's protest deposit left unpaid of its fines
    and feeding, which the workbook cannot know; its row shows 'from the office' (never 0), whether the
    re-seizure is typed this month or still in the pound (N-2610-021, re-seizing N-2609-020, carried into
    P02's November); a plain case typed beside it is worked out."""
    from pipeline.outputs.due_sheet import FROM_OFFICE

    state = worked["reseizure"]
    _said(state)                 # the accounts to 31-10 ran (S-007 left out); the template was made from them
    wb = load_workbook(state["blank"])
    carried = {r[0]: r[6] for r in wb[DUE_SHEET].iter_rows(min_row=DUE_FIRST + 1, min_col=15, max_col=21,
                                                           values_only=True) if r[0]}
    assert carried.get("N-2610-021") == "N-2609-020"
    assert "pays no fine" not in " ".join(str(wb[DUE_SHEET].cell(r, 1).value) for r in (1, 2, 3))
    # typed (fixture `worked`): N-2611-090 re-seizing N-2609-020 and a plain N-2611-091, released with N-2610-021
    ws = load_workbook(state["worked"], data_only=True)[DUE_SHEET]
    shown = {r[0]: r[9:12] for r in ws.iter_rows(min_row=DUE_FIRST, max_col=12, values_only=True) if r[0]}
    assert shown["R-0090"] == shown["R-0091"] == (FROM_OFFICE,) * 3
    # N-2611-091: 1 cattle in Nanjangud (fine 700, feeding 200), 25-11 to 27-11 = 3 days: 700 + 600 = 1,300
    assert [Decimal(str(v)) for v in shown["R-0092"]] == [Decimal(700), Decimal(600), Decimal(1300)]
