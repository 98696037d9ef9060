"""insert_typed leaves a register table as loading the same rows from a file would."""

import datetime as dt

import duckdb
import numpy as np
import pandas as pd
import pytest
from helpers import load, make_bundle

from pipeline.core.registers import BY_NAME
from pipeline.load import schema
from pipeline.load.typed import insert_typed

ROWS = [
    {"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": "2", "basis": "S12_payment",
     "released_to": " owner ", "fines_paid": "1200.00", "charges_paid": "1,200.50", "protest_deposit": "",
     "declaration_made": "yes", "security_deposit_id": "", "receipt_signed": "no", "court_order_ref": ""},
    {"release_id": "R2", "case_id": "C1", "released_on": "2026-10-04", "head_count": "1", "basis": "court_order",
     "released_to": "", "fines_paid": "", "charges_paid": "0", "protest_deposit": "", "declaration_made": "",
     "security_deposit_id": "", "receipt_signed": "yes", "court_order_ref": "OS 4/2026"},
]


def typed_releases(days_as_ints: bool) -> pd.DataFrame:
    on = [dt.date(2026, 10, 3), dt.date(2026, 10, 4)]
    return pd.DataFrame({
        "release_id": ["R1", "R2"], "case_id": ["C1", "C1"],
        "released_on": [(d - dt.date(1970, 1, 1)).days for d in on] if days_as_ints else pd.to_datetime(on),
        "head_count": [2, 1], "basis": ["S12_payment", "court_order"], "released_to": [" owner ", ""],
        "fines_paid": [120000, -1], "charges_paid": [120050, 0], "protest_deposit": [-1, -1],
        "declaration_made": [True, False], "security_deposit_id": ["", ""], "receipt_signed": [False, True],
        "court_order_ref": ["", "OS 4/2026"], "_my_own": [1, 2]})


def table(con, name):
    cols = ", ".join(f'"{c}"' for c in BY_NAME[name].names)
    return con.execute(f"SELECT {cols}, _row, _extra FROM {name} ORDER BY _row").fetchall()


@pytest.mark.parametrize("days_as_ints", [True, False])
def test_typed_rows_are_stored_as_the_loader_stores_their_text(tmp_path, days_as_ints):
    bundle = make_bundle(tmp_path / "b", impoundments=[{"case_id": "C1", "pound_id": "P1", "impounded_on": "2026-10-01",
                                                        "animal_class": "cattle", "head_count": "3"}],
                         releases=ROWS)
    loaded, result = load(bundle)
    assert not result.rejected
    con = duckdb.connect()
    schema.ensure_schema(con)
    assert insert_typed(con, "releases", typed_releases(days_as_ints), "synth/releases", blank=-1) == 2
    assert table(con, "releases") == table(loaded, "releases")
    load_row = con.execute("SELECT file, register, rows, new_rows, status, length(sha256) FROM loads").fetchall()
    assert load_row == [("synth/releases", "releases", 2, 2, "loaded", 64)]
    assert con.execute("SELECT DISTINCT _file, _load_id FROM releases").fetchall() == [("synth/releases", 1)]


def test_absent_columns_are_blank_and_a_second_insert_is_a_second_load():
    con = duckdb.connect()
    schema.ensure_schema(con)
    insert_typed(con, "sales", pd.DataFrame({"sale_id": ["S1"], "case_id": ["C1"], "path": ["s15_unclaimed"],
                                             "sale_on": [20000], "head_sold": [1]}), "a")
    insert_typed(con, "sales", pd.DataFrame({"sale_id": ["S2"], "case_id": ["C2"], "path": ["s15_unclaimed"],
                                             "sale_on": [dt.date(2026, 1, 1)], "head_sold": [0],
                                             "balance_paid": pd.array([None], dtype="Int64")}), "b")
    got = con.execute("SELECT sale_id, sale_on, bid_amount, accepted, balance_paid, _row, _load_id FROM sales "
                      "ORDER BY sale_id").fetchall()
    assert got == [("S1", dt.date(2024, 10, 4), None, False, None, 2, 1),
                   ("S2", dt.date(2026, 1, 1), None, False, None, 2, 2)]


def test_unknown_columns_and_fractional_money_are_refused():
    con = duckdb.connect()
    schema.ensure_schema(con)
    with pytest.raises(ValueError, match="no column sold_for"):
        insert_typed(con, "sales", pd.DataFrame({"sale_id": ["S1"], "sold_for": [1]}), "x")
    with pytest.raises(ValueError, match="bid_amount"):
        insert_typed(con, "sales", pd.DataFrame({"sale_id": ["S1"], "bid_amount": np.array([10.5])}), "x")
    assert con.execute("SELECT count(*) FROM sales").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM loads").fetchone() == (0,)
