"""What a spreadsheet adds when it saves CSV UTF-8 keeps loading; other encodings are named, not guessed
(the rejections are cases of test_rejections.py; encodings.py words them)."""

from helpers import make_bundle

from pipeline.load import connection
from pipeline.load.encodings import row_of, utf16_problem
from pipeline.load.ingest import ingest

HEAD = ("case_id,pound_id,seized_on,impounded_on,impounded_time,place_of_seizure,seized_by,animal_class,"
        "head_count,description,owner_id,owner_name,owner_village")


def test_bom_crlf_trailing_empty_lines_and_spaces_around_cells_load(tmp_path):
    bundle = make_bundle(tmp_path / "b")
    text = ("\ufeff" + HEAD + "\r\n"
            " C1 , P1 ,, 2026-10-01 ,,\" Market gate \",, cattle , 2 ,,O1, Jos\u00e9 ,\r\n"
            "\r\n\r\n")
    (bundle / "registers").mkdir()
    (bundle / "registers" / "impoundments.csv").write_bytes(text.encode("utf-8"))
    con = connection.connect(":memory:")
    result = ingest(con, bundle)
    assert not result.rejected, [p.render() for p in result.problems]
    got = con.execute("SELECT case_id, pound_id, impounded_on::VARCHAR, animal_class, head_count, owner_name, _row "
                      "FROM impoundments").fetchall()
    assert got == [("C1", "P1", "2026-10-01", "cattle", 2, "José", 2)]


def test_utf16_is_told_by_its_mark_or_its_zero_bytes_and_utf8_is_not():
    assert utf16_problem("a,b\n".encode("utf-16"))
    assert utf16_problem("a,b\n".encode("utf-16-le"))
    assert utf16_problem("\ufeffa,b\n".encode("utf-8")) is None
    assert utf16_problem("case_id,José\n".encode()) is None


def test_the_offending_row_counts_records_not_lines():
    data = 'h1,h2\nx,"two\nlines"\ny,Jos\xe9\n'.encode("cp1252")
    assert row_of(data, data.index(b"\xe9")) == 3
    assert row_of(data, 0) == 1
