"""pound workbook, the scope options, and the whole-bundle workbook's row limit."""

import pytest
from openpyxl import load_workbook


@pytest.fixture(scope="module")
def sample_db(shared):
    from pathlib import Path
    sample = Path(__file__).resolve().parent.parent.parent / "data" / "sample"
    return shared.run(sample, "2026-11-30") / "pound.duckdb"


def test_a_year_for_one_local_authority(sample_db, tmp_path, run_cli):
    path = tmp_path / "LA01.xlsx"
    code, out, err = run_cli("workbook", "--db", sample_db, "--local-authority", "la01", "--financial-year", "2026-27",
                             "--out", path)
    assert code == 0, err
    assert out.startswith(f"wrote {path}: balances 2, reconciliation ")
    wb = load_workbook(path, read_only=True)
    assert wb.sheetnames[:4] == ["cover", "balances", "reconciliation", "ledger_entries"]
    cover = {r[0]: r[1] for r in wb["cover"].iter_rows(values_only=True) if len(r) > 1 and r[0]}
    assert cover["local authority"] == "LA01" and cover["period"] == "financial year 2026-27"
    # the local authority's own district, not "every district"; and the year runs past the accounts' date
    assert cover["district"] == "Mysuru"
    assert cover["note"].startswith("the period runs past 30-11-2026") and "runs past 30-11-2026" in err
    # the sample's removal order RO-03 names no local authority: the cover says where its findings are
    sheets = {r[0]: r[2] for r in wb["cover"].iter_rows(values_only=True) if len(r) > 2 and r[0]}
    assert "findings on s.14 removal orders name no local authority" in sheets["findings"]
    for name in wb.sheetnames[1:]:
        header, *rows = list(wb[name].iter_rows(values_only=True))
        if "local_authority_id" in header:
            i = header.index("local_authority_id")
            assert {r[i] for r in rows} <= {"LA01"}, name


@pytest.mark.parametrize(("args", "message"), [
    (["--financial-year", "2026-28"], "is not a financial year written like 2026-27"),
    (["--financial-year", "2026-27", "--month", "2026-10"], "give one period, not --financial-year and --month"),
    (["--from", "2026-10-02", "--to", "2026-10-01"], "--to 2026-10-01 is before --from 2026-10-02"),
    (["--local-authority", "LA99"], "no local authority 'LA99'; the database has LA01"),
    (["--district", "Mandya"], "no pound is in district 'Mandya'"),
])
def test_a_wrong_scope_is_one_line(sample_db, tmp_path, run_cli, args, message):
    code, out, err = run_cli("workbook", "--db", sample_db, "--out", tmp_path / "x.xlsx", *args)
    assert code == 1 and message in err and "Traceback" not in err
    assert err.count("\n") == 1 and not (tmp_path / "x.xlsx").exists()


def test_out_must_be_an_xlsx_file(sample_db, tmp_path, run_cli):
    code, _, err = run_cli("workbook", "--db", sample_db, "--out", tmp_path / "x.csv")
    assert code == 1 and "must end in .xlsx" in err


def test_report_needs_a_period(sample_db, tmp_path, run_cli):
    code, _, err = run_cli("report", "--db", sample_db, "--out", tmp_path / "r")
    assert code == 1 and "name a period" in err


@pytest.mark.parametrize("over", [True, False])
def test_build_writes_the_whole_workbook_only_up_to_the_row_limit(sample_db, tmp_path, run_cli, monkeypatch, over):
    import shutil

    import duckdb

    from pipeline.outputs import workbook
    con = duckdb.connect(str(sample_db), read_only=True)
    table, rows = workbook.largest_sheet(con)
    con.close()
    db = tmp_path / "p.duckdb"
    shutil.copy(sample_db, db)
    out = tmp_path / "out"
    # the limit one row below the sample's largest sheet, or exactly at it
    monkeypatch.setattr(workbook, "WHOLE_WORKBOOK_MAX_ROWS", rows - 1 if over else rows)
    code, stdout, err = run_cli("build", "--db", db, "--out", out, "--as-of", "2026-11-30")
    assert code == 0, err
    assert (out / "case_accounts.csv").exists()
    assert (out / "audit_workbook.xlsx").exists() is not over
    said = f"audit_workbook.xlsx not written: its largest sheet, {table}, would hold {rows:,} rows"
    assert (said in stdout) is over
    assert (f"pound workbook --db {db} --local-authority ID --financial-year" in stdout) is over


@pytest.mark.parametrize("year, said", [("2019-20", True), ("2026-27", False)])
def test_a_year_with_nothing_in_it_says_so(sample_db, tmp_path, run_cli, year, said):
    code, out, err = run_cli("workbook", "--db", sample_db, "--local-authority", "LA01", "--financial-year", year,
                             "--out", tmp_path / "w.xlsx")
    assert code == 0, err
    assert (f"nothing in the accounts falls in financial year {year} for this scope" in err) == said
