"""The command line: help, exit codes, messages without tracebacks, outputs of `pound run`."""

import csv
import shutil
import subprocess
import sys

import pytest

from pipeline.core.money import paise_text
from pipeline.load import connection

COMMANDS = ["run", "ingest", "build", "report", "workbook", "synth", "demo", "documents", "template"]


def test_main_help_lists_commands_and_examples(run_cli):
    code, out, _ = run_cli("--help")
    assert code == 0
    for c in COMMANDS:
        assert c in out
    assert "examples:" in out and "pound run data/sample --out out/" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_help_with_an_example(command, run_cli):
    code, out, _ = run_cli(command, "--help")
    assert code == 0
    assert "example:" in out and f"pound {command}" in out


def test_python_dash_m_works():
    res = subprocess.run([sys.executable, "-m", "pipeline", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "pound run" in res.stdout


def test_usage_mistakes_exit_1_not_2(run_cli):
    code, _, err = run_cli("run", "x")
    assert code == 1 and "--out" in err
    code, _, err = run_cli("run", "x", "--out", "y", "--as-of", "31/02/2026")
    assert code == 1 and "'31/02/2026' is not a date: write it YYYY-MM-DD (2026-10-31), or day first" in err
    assert len(err.strip().splitlines()) == 1 and "(pound run --help lists every option" in err
    # an option the command does not take: its own --help, and the option meant
    code, _, err = run_cli("run", "x", "--out", "y", "--asof", "2026-10-31")
    assert code == 1 and "pound: --asof: did you mean --as-of?" in err
    assert "(pound run --help lists every option" in err


def test_a_run_whose_reader_has_gone_still_writes_everything(tmp_path, sample_bundle):
    # `pound run ... | head -1`: the reader goes after a line; the run goes on, silent, to the end
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(sample_bundle), "--out", str(tmp_path / "o"),
                             "--as-of", "2026-11-30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                     # gone before the first line: every write finds no reader
    err = proc.stderr.read().decode()
    assert proc.wait() == 0, err
    assert "BrokenPipe" not in err and "failed" not in err
    assert (tmp_path / "o" / "audit_workbook.xlsx").exists() and (tmp_path / "o" / "adjustments.csv").exists()


def test_a_date_on_the_command_line_is_written_as_in_the_registers():
    import datetime as dt

    from pipeline.cli.common import date

    assert date("2026-10-05") == date("05/10/2026") == date("05-10-2026") == date(" 05/10/2026 ") == dt.date(2026, 10, 5)


def test_a_folder_inside_a_bundle_is_one_line_naming_the_bundle(tmp_path, run_cli, sample_bundle):
    code, _, err = run_cli("run", sample_bundle / "registers", "--out", tmp_path / "o")
    assert code == 1 and not (tmp_path / "o").exists()
    assert err.strip() == (f"pound: {sample_bundle / 'registers'} is the registers/ folder of a bundle; give the "
                           f"bundle folder that holds it: {sample_bundle}")
    # a month's files (registers/ and ledgers/, no reference/), loaded into a database that has the rest
    month = tmp_path / "month"
    shutil.copytree(sample_bundle / "registers", month / "registers")
    shutil.copytree(sample_bundle / "ledgers", month / "ledgers")
    code, _, err = run_cli("ingest", month / "ledgers", "--db", tmp_path / "p.duckdb")
    assert code == 1 and f"is the ledgers/ folder of a bundle; give the bundle folder that holds it: {month}" in err
    # a bundle that happens to be called registers/ (it holds reference/, registers/, ledgers/) is read as one
    named = tmp_path / "ledgers" / "registers"
    shutil.copytree(sample_bundle, named)
    code, _, err = run_cli("run", named, "--out", tmp_path / "o2", "--as-of", "2026-11-30")
    assert code == 0 and "folder of a bundle" not in err


def test_missing_bundle_is_one_line_exit_1(tmp_path, run_cli):
    code, out, err = run_cli("run", tmp_path / "nope", "--out", tmp_path / "o")
    assert code == 1
    assert err.strip() == f"pound: bundle folder {tmp_path / 'nope'} does not exist"


def test_bad_parameters_file_is_a_plain_message(tmp_path, sample_bundle, run_cli):
    p = tmp_path / "p.toml"
    p.write_text("claim_dayz = 8\n")
    code, _, err = run_cli("run", sample_bundle, "--out", tmp_path / "o", "--params", p)
    assert code == 1 and "unknown parameter 'claim_dayz'" in err and "Traceback" not in err


def test_run_writes_every_export_with_two_decimal_money(tmp_path, sample_bundle, shared):
    # `pound run`, made once for the session (tests/shared.py: it stops there unless the run exits 0)
    out = shared.run(sample_bundle, "2026-11-30", tmp_path / "out")
    names = {p.name for p in out.iterdir()}
    assert names == {"pound.duckdb", "case_accounts.csv", "fund_movements.csv", "security_status.csv", "findings.csv",
                     "reconciliation.csv", "monthly_accounts.csv", "owner_accounts.csv", "audit_workbook.xlsx",
                     "parameters.toml", "corrections.csv", "finding_reviews.csv", "adjustments.csv"}
    with (out / "case_accounts.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 25
    for r in rows:
        for col in ("fine_due", "feeding_due", "security_due", "sale_proceeds", "unrecovered"):
            assert r[col].count(".") == 1 and len(r[col].split(".")[1]) == 2, (col, r[col])
    # every amount of the reconciliation in rupees, those after the contract's columns too
    with (out / "reconciliation.csv").open() as fh:
        recon = list(csv.DictReader(fh))
    con = connection.connect(out / "pound.duckdb", read_only=True)
    paise = {(r[0], r[1], r[2], r[3]): r[4:] for r in con.execute(
        "SELECT ledger, local_authority_id, reference, head, difference_due, status_amount FROM reconciliation").fetchall()}
    for r in recon:
        due, status = paise[(r["ledger"], r["local_authority_id"], r["reference"], r["head"])]
        assert (r["difference_due"], r["status_amount"]) == (paise_text(due), paise_text(status)), r
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert {"loads", "impoundments", "case_accounts", "findings", "reconciliation", "parameters"} <= tables
    assert "as_of = 2026-11-30" in (out / "parameters.toml").read_text()


def test_build_recomputes_from_the_database(tmp_path, sample_bundle, run_cli, shared):
    path = tmp_path / "p.duckdb"
    assert run_cli("ingest", sample_bundle, "--db", path)[0] == 0
    code, _, err = run_cli("build", "--db", path, "--out", tmp_path / "a", "--as-of", "2026-11-30")
    assert code == 0, err
    assert "note:" not in err                       # a date given, and already past: nothing to say
    shared.run(sample_bundle, "2026-11-30", tmp_path / "b")          # `pound run`, made once for the session
    for name in ("case_accounts.csv", "fund_movements.csv", "findings.csv", "reconciliation.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_a_run_or_build_says_when_it_took_today_or_a_date_still_to_come():
    import argparse
    import datetime as dt

    from pipeline.cli.common import as_of_note

    today = dt.date.today()
    assert as_of_note(argparse.Namespace(as_of=None)) == \
        f"note: the accounts are drawn up to today, {today:%d-%m-%Y} (no --as-of given)"
    ahead = as_of_note(argparse.Namespace(as_of=today + dt.timedelta(days=1)))
    assert ahead.startswith("note: the accounts are drawn up to ") and f"after today ({today:%d-%m-%Y})" in ahead
    assert as_of_note(argparse.Namespace(as_of=today)) is None


def test_build_without_database_says_how_to_make_one(tmp_path, run_cli):
    code, _, err = run_cli("build", "--db", tmp_path / "none.duckdb", "--out", tmp_path / "o")
    assert code == 1 and "create it with 'pound ingest' or 'pound run'" in err


def test_a_defect_is_one_line_and_debug_shows_the_traceback(tmp_path, run_cli):
    path = tmp_path / "broken.duckdb"
    path.write_text("this is not a database")
    code, _, err = run_cli("build", "--db", path, "--out", tmp_path / "o")
    assert code == 1 and len(err.strip().splitlines()) == 1 and "run with --debug" in err
    code, _, err = run_cli("--debug", "build", "--db", path, "--out", tmp_path / "o")
    assert code == 1 and "Traceback" in err


def test_a_parameters_file_overrides_a_reading_and_is_written_beside_the_outputs(tmp_path, sample_bundle, run_cli):
    params = tmp_path / "mine.toml"
    params.write_text("report_grace = 30  # days\n")
    out = tmp_path / "out"
    assert run_cli("run", sample_bundle, "--out", out, "--as-of", "2026-11-30", "--params", params)[0] == 0
    findings = (out / "findings.csv").read_text()
    assert "S15-REPORT-MISSING" not in findings and "S15-NOTICE-MISSING" in findings      # H-2610-019 is within grace
    written = (out / "parameters.toml").read_text()
    assert "report_grace = 30" in written and "notice_grace = 2" in written
    # the written file reproduces the run
    again = tmp_path / "again"
    assert run_cli("run", sample_bundle, "--out", again, "--as-of", "2026-11-30", "--params", out / "parameters.toml")[0] == 0
    assert (again / "findings.csv").read_text() == findings


_RUN_AND_LIST_MODULES = """
import sys
from pipeline.cli import main
code = main(sys.argv[1:])
print(" ".join(sorted(m for m in sys.modules if "." not in m)), file=sys.stderr)
sys.exit(code)
"""


def test_a_run_of_plain_csv_files_imports_neither_pandas_nor_gx_nor_openpyxl(sample_bundle, tmp_path):
    """pandas costs a district's run half a second to import, GX eight and openpyxl (with numpy) a
    quarter: DuckDB reads plain CSV files, the compiled suite checks them and the workbook is
    written from DuckDB's rows by xlsx.py, so a run of the sample imports none of them (an Excel
    sheet or an odd CSV file still brings pandas)."""
    res = subprocess.run([sys.executable, "-c", _RUN_AND_LIST_MODULES, "run", str(sample_bundle),
                          "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    loaded = set(res.stderr.strip().splitlines()[-1].split())
    heavy = {"pandas", "great_expectations", "openpyxl", "numpy"}
    assert "duckdb" in loaded and not loaded & heavy, sorted(loaded & heavy)
    assert (tmp_path / "o" / "audit_workbook.xlsx").exists()
