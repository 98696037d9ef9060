"""A ledger's reference names a case however it is typed: trimmed and case folded once, in staging
(the case_ref column, made by the macro case_ref()), and every model joins on that column.

The sample's ledgers with every reference in lower case and between spaces give every finished
table the same rows as the sample itself, each text compared folded (a reference is shown as it
was entered): the same match of entries to cases, credits and balances on every page, paper and
export, which read the finished tables only (tests/build/test_layers.py). Once with the spaces
put into the database after the loader, which trims cells (staging alone must fold them), and
once through a workbook read by the loader.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
import shared
from helpers import built

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.load import connection
from pipeline.load.ingest import ingest
from pipeline.outputs.tables import finished_tables

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
AS_OF = dt.date(2026, 11, 30)
LEDGERS = ("local_fund", "dm_deposit")
pytestmark = [pytest.mark.xdist_group("case_ref")]


def _folded(con, table: str) -> list[tuple]:
    """Every row of the table, every text column trimmed and case folded, in a stable order."""
    kinds = con.execute(f"PRAGMA table_info('{table}')").fetchall()
    cols = [f'lower(trim("{c}"))' if k == "VARCHAR" else f'"{c}"' for _, c, k, *_ in kinds
            if c not in ("loaded_at", "last_loaded_at")]
    return con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()


def _same_everywhere(plain, other) -> int:
    compared = 0
    for table in finished_tables():
        assert _folded(other, table) == _folded(plain, table), f"{table} matches another way"
        compared += 1
    return compared


@pytest.fixture(scope="module")
def plain():
    """The sample's rows typed, inserted and built (helpers.built: a copy of the session's build of the
    sample at AS_OF, which the sample's other tests build too)."""
    con = built(SAMPLE, as_of=AS_OF)
    yield con
    con.close()


def test_padded_references_in_the_database_match_alike(plain, tmp_path):
    # the sample's rows typed and inserted, not built (helpers.inserted_into: a copy of the session's)
    shutil.copyfile(shared.SESSION.inserted_file(SAMPLE), tmp_path / "pound.duckdb")
    con = connection.connect(tmp_path / "pound.duckdb")
    for ledger in LEDGERS:
        con.execute(f"UPDATE {ledger} SET reference = '  ' || lower(reference) || ' '")
    assert con.execute("SELECT count(*) FROM local_fund WHERE reference LIKE '  m-%' OR reference LIKE '  n-%'").fetchone()[0] > 5
    build(con, Parameters({}, as_of=AS_OF))
    assert _same_everywhere(plain, con) > 20
    # the near miss: a reference folded differently (another case) is matched no more (built again up to
    # reconciliation, the one table it reads)
    con.execute("UPDATE local_fund SET reference = 'x' || reference")
    build(con, Parameters({}, as_of=AS_OF), upto="reconciliation")
    assert _folded(con, "reconciliation") != _folded(plain, "reconciliation")


def _through_a_workbook(root: Path, padded: bool):
    """The sample with its two ledgers as the sheets of one workbook (references padded and in
    lower case, or as they are), loaded by `pound run`'s load and built."""
    bundle = root / "bundle"
    shutil.copytree(SAMPLE, bundle)
    book = openpyxl.Workbook()
    book.remove(book.active)
    for ledger in LEDGERS:
        path = bundle / "ledgers" / f"{ledger}.csv"
        lines = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        at = lines[0].index("reference")
        sheet = book.create_sheet(ledger)
        for i, cells in enumerate(lines):
            if i and cells[at] and padded:
                cells[at] = f"  {cells[at].lower()} "
            sheet.append(cells)
        path.unlink()
    book.save(bundle / "ledgers" / "ledgers.xlsx")
    con = connection.connect(root / "pound.duckdb")
    result = ingest(con, bundle)
    assert result.rejected == [], [p.render() for p in result.problems]
    build(con, Parameters({}, as_of=AS_OF))
    return con


def test_padded_references_through_a_workbook_match_alike(tmp_path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "padded").mkdir()
    plain = _through_a_workbook(tmp_path / "plain", padded=False)
    padded = _through_a_workbook(tmp_path / "padded", padded=True)
    assert padded.execute("SELECT count(*) FROM dm_deposit WHERE reference <> upper(reference)").fetchone()[0] > 0
    assert _same_everywhere(plain, padded) > 20


def test_no_model_after_staging_folds_a_reference_or_a_case_id_itself():
    """The folding is staging's alone: a model after it joins on case_ref columns, and neither calls
    case_ref() nor lower() or trim() on a reference or a case id (its near miss: a taluk or a name,
    folded where it is compared, is not a reference)."""
    from pipeline.core.paths import SQL_DIR

    folding = re.compile(r"\b(?:case_ref|lower|trim)\(([^()]*(?:\([^()]*\))?[^()]*)\)", re.I)
    found = []
    for path in sorted(SQL_DIR.rglob("*.sql")):
        if path.parent.name == "staging" or path.name == "macros.sql":
            continue
        for arg in folding.findall(path.read_text(encoding="utf-8")):
            if re.search(r"reference|case_id|ref_id", arg):
                found.append(f"{path.relative_to(SQL_DIR)}: {arg}")
    assert found == []
    assert folding.search("lower(c.taluk)") and not re.search(r"reference|case_id|ref_id", "c.taluk")
