"""pound export: every finished table and register read back exactly, from Parquet and from CSV."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pipeline.outputs.tables import finished_tables


@pytest.fixture(scope="module")
def golden_run(tmp_path_factory, shared) -> Path:
    from pipeline.cli import main

    root = Path(__file__).resolve().parents[1] / "golden" / "bundle"
    out = tmp_path_factory.mktemp("golden_export")
    shared.run(root, "2026-12-31", out / "run")
    for fmt in ("parquet", "csv"):
        assert main(["export", "--db", str(out / "run" / "pound.duckdb"), "--out", str(out / fmt), "--format", fmt]) == 0
    return out


def _types(con, relation: str) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()]


def _exported(out: Path, fmt: str) -> list[Path]:
    return sorted(out.glob(f"*.{fmt}")) + sorted((out / "registers").glob(f"*.{fmt}"))


def test_every_finished_table_and_register_is_written(golden_run):
    names = {p.stem for p in _exported(golden_run / "parquet", "parquet")}
    assert set(finished_tables()) | {"loads", "parameters", "impoundments", "releases", "sales", "rates"} <= names
    assert {"case_accounts", "findings", "reconciliation", "sale_prices", "deadlines_missed"} <= names
    assert not any(n.startswith(("stg_", "int_")) for n in names)        # work in progress is not exported
    assert {p.stem for p in _exported(golden_run / "csv", "csv")} == names


def test_parquet_reads_back_as_the_table_with_its_types(golden_run):
    con = duckdb.connect(str(golden_run / "run" / "pound.duckdb"), read_only=True)
    for path in _exported(golden_run / "parquet", "parquet"):
        parquet = f"read_parquet('{path}')"
        assert _types(con, parquet) == _types(con, path.stem), path.name
        for a, b in ((path.stem, parquet), (parquet, path.stem)):
            assert con.execute(f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})").fetchone() == (0,), path
    case_types = dict(_types(con, "read_parquet('" + str(golden_run / "parquet" / "case_accounts.parquet") + "')"))
    assert case_types["fine_due"] == "BIGINT" and case_types["impounded_on"] == "DATE"      # paise and dates
    con.close()


def test_csv_reads_back_as_the_table(golden_run):
    con = duckdb.connect(str(golden_run / "run" / "pound.duckdb"), read_only=True)
    for path in _exported(golden_run / "csv", "csv"):
        types = _types(con, path.stem)
        cast = ", ".join(f'CAST("{c}" AS {t}) AS "{c}"' for c, t in types)
        csv = f"(SELECT {cast} FROM read_csv('{path}', header=true, all_varchar=true, allow_quoted_nulls=false))"
        for a, b in ((path.stem, csv), (csv, path.stem)):
            assert con.execute(f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})").fetchone() == (0,), path
        assert con.execute(f"SELECT count(*) FROM {csv}").fetchone() == con.execute(f"SELECT count(*) FROM {path.stem}").fetchone()
    con.close()


@pytest.mark.parametrize("table, money", [("case_accounts", ["fine_due", "feeding_due", "sale_proceeds", "unrecovered"]),
                                          ("fund_movements", ["amount"]),
                                          ("reconciliation", ["expected_amount", "ledger_amount"])])
def test_pandas_reads_the_parquet_rows_and_money_of_the_run_csvs(golden_run, table, money):
    # numpy_nullable: a money column with blanks stays integer paise (Int64), not float
    parquet = pd.read_parquet(golden_run / "parquet" / f"{table}.parquet", dtype_backend="numpy_nullable")
    csv = pd.read_csv(golden_run / "run" / f"{table}.csv", dtype=str, keep_default_na=False)
    assert len(parquet) == len(csv)
    for col in money:
        assert str(parquet[col].dtype) in ("int64", "Int64"), col
        paise = sum(int(v) for v in parquet[col].dropna())
        rupees = sum(Decimal(v) for v in csv[col] if v)          # the run's CSVs write rupees with two decimals
        assert Decimal(paise) / 100 == rupees, col


def test_export_will_not_write_over_the_run_exports(golden_run, run_cli):
    code, _, err = run_cli("export", "--db", golden_run / "run" / "pound.duckdb", "--out", golden_run / "run")
    assert code == 1 and "holds other files" in err and "Traceback" not in err
    code, _, err = run_cli("export", "--db", golden_run / "nope.duckdb", "--out", golden_run / "x")
    assert code == 1 and err.startswith("pound: database") and not (golden_run / "x").exists()
