"""Reading CSV and Excel bundles and loading them (bundle.py, ingest.py)."""

import csv
import datetime as dt
import shutil

from helpers import case, make_bundle, snapshot, write_csv
from openpyxl import Workbook

from pipeline.core.registers import BY_NAME, REGISTERS
from pipeline.load import connection, schema
from pipeline.load.ingest import ingest


def test_csv_with_bom_blank_lines_odd_headers_and_extra_columns(tmp_path):
    bundle = make_bundle(tmp_path / "b")
    text = ("\ufeff Case_ID ,POUND_ID,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,"
            "head_count,description,owner_id,owner_name,owner_village,ward_no\n"
            "C1,P1,,01/10/2026,9:05,\"Market, north gate\",squad,Cattle,2,\"two cows\nwith bells\",O1,Ravi,X,12\n"
            "\n"
            ",,,,,,,,,,,,,\n"
            "C2,P1,,2026-10-02,,,,calf,1,,,,,\n")
    (bundle / "registers").mkdir()
    (bundle / "registers" / "impoundments_2026-10_P1.csv").write_text(text, encoding="utf-8")
    con = connection.connect(":memory:")
    result = ingest(con, bundle)
    assert not result.rejected, [p.render() for p in result.problems]
    got = con.execute("SELECT case_id, impounded_on, impounded_time, place_of_seizure, animal_class, head_count, "
                      "description, _extra, _row FROM impoundments ORDER BY case_id").fetchall()
    assert got[0] == ("C1", dt.date(2026, 10, 1), "09:05", "Market, north gate", "cattle", 2, "two cows\nwith bells",
                      {"ward_no": "12"}, 2)
    # blank lines are dropped but every row keeps the number a spreadsheet shows
    assert got[1][0] == "C2" and got[1][-1] == 5
    loads = con.execute("SELECT file, register, rows, new_rows, status, length(sha256) FROM loads WHERE register = 'impoundments'").fetchall()
    assert loads == [("registers/impoundments_2026-10_P1.csv", "impoundments", 2, 2, "loaded", 64)]


def test_reingest_is_idempotent(tmp_path, sample_bundle):
    path = tmp_path / "p.duckdb"
    con = connection.connect(path)
    first = ingest(con, sample_bundle)
    assert {f.status for f in first.files} == {"loaded"}
    before = snapshot(con)
    again = ingest(con, sample_bundle)
    assert {f.status for f in again.files} == {"skipped"}
    assert all("same content was loaded from" in f.note for f in again.files)
    assert snapshot(con) == before


def test_same_content_under_another_name_is_skipped_and_overlapping_files_add_only_new_rows(tmp_path):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1"), case("C2")])
    con = connection.connect(":memory:")
    assert not ingest(con, bundle).rejected
    more = tmp_path / "more"
    shutil.copy(bundle / "registers" / "impoundments.csv", (more / "registers").mkdir(parents=True) or more / "registers" / "impoundments_copy.csv")
    write_csv(more / "registers" / "impoundments_oct.csv", [case("C2"), case("C3")], BY_NAME["impoundments"].names)
    result = ingest(con, more, require_reference=False)
    by = {f.label: f for f in result.files}
    assert by["registers/impoundments_copy.csv"].status == "skipped"
    assert (by["registers/impoundments_oct.csv"].status, by["registers/impoundments_oct.csv"].new_rows) == ("loaded", 1)
    assert [r[0] for r in con.execute("SELECT case_id FROM impoundments ORDER BY 1").fetchall()] == ["C1", "C2", "C3"]


def _workbook_twin(csv_bundle, folder):
    """The same bundle as workbooks: the first file of each register as a sheet of sample.xlsx, the
    later ones (corrections) as sheets of their own workbooks, named so they load in the same order;
    typed cells where Excel would have them."""
    books = {}
    for reg in REGISTERS:
        for n, file in enumerate(sorted((csv_bundle / reg.folder).glob(f"{reg.name}*.csv"))):
            name = "sample.xlsx" if n == 0 else f"sample_{n}.xlsx"
            books.setdefault(name, []).append((reg, file))
    for name, sheets in books.items():
        wb = Workbook()
        wb.remove(wb.active)
        for reg, file in sheets:
            _sheet_twin(wb.create_sheet(reg.name), reg, file)
        wb.save(folder / name)


def _sheet_twin(ws, reg, file):
    """One CSV file as a sheet: dates, counts, amounts and times as Excel holds them."""
    for i, row in enumerate(csv.reader(file.open(encoding="utf-8-sig"))):
        if i == 0:
            ws.append(row)
            header = [reg.column(h.strip().lower()) for h in row]
            continue
        cells = []
        for col, text in zip(header, row, strict=True):
            value = text
            if text and col.kind == "date":
                if "/" in text:
                    d, m, y = text.split("/")
                    value = dt.datetime(int(y), int(m), int(d))
                else:
                    value = dt.datetime.fromisoformat(text)
            elif text and col.kind == "count":
                value = int(text)
            elif text and col.kind == "money":
                value = float(text.replace(",", ""))      # what Excel holds for a number cell
            elif text and col.kind == "time":
                h, m = text.split(":")
                value = dt.time(int(h), int(m))
            cells.append(value)
        ws.append(cells)


def test_an_excel_workbook_bundle_equals_its_csv_twin(tmp_path, sample_bundle):
    twin = tmp_path / "xlsx"
    (twin / "registers").mkdir(parents=True)
    _workbook_twin(sample_bundle, twin / "registers")
    a, b = connection.connect(":memory:"), connection.connect(":memory:")
    ra, rb = ingest(a, sample_bundle), ingest(b, twin)
    assert not ra.rejected and not rb.rejected, [p.render() for p in rb.problems]
    assert all(f.label.startswith("registers/sample") and "xlsx [sheet " in f.label for f in rb.files)
    for reg in REGISTERS:
        cols = ", ".join(f'"{c}"' for c in reg.names + ["_row"])
        ta = a.execute(f"SELECT {cols} FROM {reg.table} ORDER BY ALL").fetchall()
        tb = b.execute(f"SELECT {cols} FROM {reg.table} ORDER BY ALL").fetchall()
        assert ta == tb, reg.name
        # the sample's DM refunded nothing, so it records no claim to a surplus (surplus_claims, R23)
        assert len(ta) > 0 or reg.name == "surplus_claims", reg.name


def test_excel_number_cells_are_exact(tmp_path):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1")])
    wb = Workbook()
    ws = wb.active
    ws.title = "releases"
    ws.append(BY_NAME["releases"].names)
    ws.append(["R1", "C1", dt.datetime(2026, 10, 2), 1, "s12_payment", "o", 600.1, 0.07, None, "yes", None, True, None])
    wb.save(bundle / "registers" / "rel.xlsx")
    con = connection.connect(":memory:")
    result = ingest(con, bundle)
    assert not result.rejected, [p.render() for p in result.problems]
    assert con.execute("SELECT fines_paid, charges_paid, receipt_signed FROM releases").fetchone() == (60010, 7, True)


def test_excel_money_with_more_than_two_decimals_is_rejected(tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1")])
    wb = Workbook()
    ws = wb.active
    ws.title = "Releases"
    ws.append(BY_NAME["releases"].names)
    ws.append(["R1", "C1", dt.datetime(2026, 10, 2), 1, "s12_payment", "o", 600.125, 0, None, "yes", None, "yes", None])
    wb.save(bundle / "registers" / "rel.xlsx")
    code, _, err = run_cli("ingest", bundle, "--db", tmp_path / "p.duckdb")
    assert code == 2
    assert "registers/rel.xlsx [sheet Releases], row 2, column fines_paid: '600.125' has more than two decimals" in err


def test_files_that_are_not_registers_are_named_and_passed_over(tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "b", impoundments=[case("C1")])
    (bundle / "registers" / "notes.txt").write_text("x")
    (bundle / "registers" / "cattle_list.csv").write_text("a,b\n1,2\n")
    code, out, err = run_cli("ingest", bundle, "--db", tmp_path / "p.duckdb")
    assert code == 0
    assert "note: registers/cattle_list.csv: not a register of the bundle" in err
    assert "note: registers/notes.txt: not a CSV or .xlsx file" in err


def test_a_database_made_before_bundle_as_of_gets_the_columns_added_since(tmp_path):
    import duckdb

    path = tmp_path / "old.duckdb"
    old = duckdb.connect(str(path))
    # loads as the first versions made it
    old.execute("CREATE TABLE loads (load_id INTEGER PRIMARY KEY, file VARCHAR NOT NULL, register VARCHAR NOT NULL, "
                "sha256 VARCHAR NOT NULL, rows BIGINT NOT NULL, new_rows BIGINT NOT NULL, loaded_at TIMESTAMP NOT NULL, "
                "status VARCHAR NOT NULL, bundle VARCHAR)")
    old.close()
    con = connection.connect(path)
    assert [r[0] for r in con.execute("DESCRIBE loads").fetchall()] == schema.LOADS_COLUMNS.split(", ")
    con.close()


def test_pound_threads_sets_the_threads_of_every_database_pound_opens(tmp_path, monkeypatch, shared, golden_bundle):
    from pipeline.read.database import connect as connect_built

    monkeypatch.delenv("POUND_THREADS", raising=False)
    path = tmp_path / "pound.duckdb"
    con = connection.connect(path)
    every = con.execute("SELECT current_setting('threads')").fetchone()[0]
    con.close()
    for asked, threads in (("1", 1), ("3", 3), ("none", every), ("0", every)):
        monkeypatch.setenv("POUND_THREADS", asked)
        con = connection.connect(path)
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == threads, asked
        con.close()
    monkeypatch.setenv("POUND_THREADS", "1")
    reader = connect_built(shared.run(golden_bundle, "2026-11-30", tmp_path / "run") / "pound.duckdb")
    assert reader.execute("SELECT current_setting('threads')").fetchone()[0] == 1


def test_one_thread_for_rows_that_fit_one_row_group_unless_pound_threads_says(tmp_path, monkeypatch):
    monkeypatch.delenv("POUND_THREADS", raising=False)
    con = connection.connect(tmp_path / "pound.duckdb")
    try:
        every = con.execute("SELECT current_setting('threads')").fetchone()[0]
        connection.threads_for(con, connection.ROW_GROUP)          # the near miss: one row group and more
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == every
        connection.threads_for(con, connection.ROW_GROUP - 1)
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 1
        monkeypatch.setenv("POUND_THREADS", "2")
        con.execute(f"SET threads = {every}")
        connection.threads_for(con, 10)                             # asked for: it stands
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == every
    finally:
        con.close()


def test_the_largest_table_decides_the_threads_of_a_database(tmp_path, monkeypatch):
    monkeypatch.delenv("POUND_THREADS", raising=False)
    con = connection.connect(tmp_path / "pound.duckdb")
    try:
        every = con.execute("SELECT current_setting('threads')").fetchone()[0]
        con.execute(f"CREATE TABLE big AS SELECT range AS n FROM range({connection.ROW_GROUP})")
        con.execute("CREATE TABLE small AS SELECT 1 AS n")
        connection.threads_for_tables(con)                        # a state's table: DuckDB's own count
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == every
        con.execute("DROP TABLE big")
        con.execute(f"CREATE TABLE big AS SELECT range AS n FROM range({connection.ROW_GROUP - 1})")
        connection.threads_for_tables(con)                        # a district's: one thread
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 1
    finally:
        con.close()


def test_a_database_made_for_rows_that_fit_one_row_group_has_small_blocks(tmp_path):
    def block(path, rows) -> int:
        con = connection.connect(path, rows=rows)
        try:
            return con.execute("SELECT block_size FROM pragma_database_size()").fetchone()[0]
        finally:
            con.close()

    assert block(tmp_path / "month.duckdb", connection.ROW_GROUP - 1) == connection.SMALL_BLOCK
    # the near misses: a row group's rows and more, no rows said, and a file made before keeps its blocks
    assert block(tmp_path / "state.duckdb", connection.ROW_GROUP) == 262_144
    assert block(tmp_path / "unsaid.duckdb", None) == 262_144
    assert block(tmp_path / "state.duckdb", 10) == 262_144
    assert block(tmp_path / "month.duckdb", connection.ROW_GROUP) == connection.SMALL_BLOCK


def _reports(tmp_path, name, header, rows, excel=False):
    bundle = make_bundle(tmp_path / name, impoundments=[case("C1"), case("C2")])
    (bundle / "registers").mkdir(exist_ok=True)
    if excel:
        wb = Workbook()
        ws = wb.active
        ws.title = "police_reports"
        ws.append(header)
        for r in rows:
            ws.append(r)
        wb.save(bundle / "registers" / "police_reports.xlsx")
    else:
        lines = [",".join(header)] + [",".join(r) for r in rows]
        (bundle / "registers" / "police_reports.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    con = connection.connect(":memory:")
    result = ingest(con, bundle)
    assert not result.rejected, [p.render() for p in result.problems]
    return con.execute("SELECT case_id, proclamation_on, market_proclamation_on FROM police_reports "
                       "ORDER BY case_id").fetchall()


def test_a_police_report_without_the_market_column_records_one_proclamation_for_both_places(tmp_path):
    # R25: a file without market_proclamation_on (CSV or workbook) gives each row its proclamation_on;
    # a file with it keeps a blank as blank (no proclamation at the market place recorded)
    old = ["case_id", "reported_on", "reported_to", "notice_on", "proclamation_on"]
    rows = [["C1", "2026-10-09", "PS", "2026-10-10", "2026-10-11"], ["C2", "2026-10-09", "PS", "2026-10-10", ""]]
    d11 = dt.date(2026, 10, 11)
    assert _reports(tmp_path, "csv", old, rows) == [("C1", d11, d11), ("C2", None, None)]
    assert _reports(tmp_path, "xlsx", old, rows, excel=True) == [("C1", d11, d11), ("C2", None, None)]
    new = [*old, "market_proclamation_on"]
    assert _reports(tmp_path, "new", new, [rows[0] + [""], rows[1] + ["2026-10-12"]]) == \
        [("C1", d11, None), ("C2", None, dt.date(2026, 10, 12))]
