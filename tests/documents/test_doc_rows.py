"""The rows of every doc_* model, read as `pound documents` reads them (a read-only connection
opened after the build), equal those the models gave when they were tables, built by each
build: tests/documents/expected/<bundle>/<model>.csv holds those rows, each cell as text, written
from the tables before the models became views (issue 52), which the build now makes instead."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from shared import GOLDEN, SAMPLE

from pipeline.documents.papers import KINDS

EXPECTED = Path(__file__).resolve().parent / "expected"
RUNS = {"sample": (SAMPLE, "2026-11-30"), "golden": (GOLDEN, "2026-12-31")}
MODELS = sorted({k.model for k in KINDS})


def doc_rows(con, model: str) -> list[list[str]]:
    """A model's rows as text, sorted, under a header of each column's name and type."""
    described = con.execute(f"DESCRIBE {model}").fetchall()
    header = [f"{name}:{kind}" for name, kind, *_ in described]
    rows = con.execute(f"SELECT * FROM {model} ORDER BY ALL").fetchall()
    return [header, *([("" if v is None else str(v)) for v in row] for row in rows)]


@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("model", MODELS)
def test_each_doc_model_read_after_the_build_gives_the_rows_its_table_did(shared, run, model):
    from pipeline.read.database import connect

    bundle, as_of = RUNS[run]
    con = connect(shared.run_folder(bundle, as_of) / "pound.duckdb")
    try:
        # a view, computed here: the build writes no rows of it
        assert con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [model]).fetchone()[0] == 1
        got = doc_rows(con, model)
    finally:
        con.close()
    with (EXPECTED / run / f"{model}.csv").open(newline="", encoding="utf-8") as fh:
        expected = list(csv.reader(fh))
    assert got[0] == expected[0], "the columns or their types changed"
    assert len(got) > 1 or model == "doc_security_receipts", "nothing to compare"
    assert got[1:] == expected[1:]
