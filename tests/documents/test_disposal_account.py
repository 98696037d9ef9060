"""The account of a disposal after a rejected bid (s.15(3) proviso, R5 of the second reading) reads as
one: on the sample, M-2610-022's old bullock had one bid rejected (S-008) and was handed to a gaushala
for nothing (S-009). Its twin is N-2610-013's s.17 sale, which disposes of nothing."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]


def _text(folder: Path, case_id: str) -> str:
    page = (folder / f"owner_account_{case_id}.html").read_text(encoding="utf-8")
    return " ".join(BeautifulSoup(page, "html.parser").get_text(" ").split())


def test_the_account_of_a_disposal_says_disposal_and_holds_nothing_for_the_dm(shared, tmp_path, run_cli):
    run = shared.run(ROOT / "data" / "sample", "2026-11-30")
    code, _, err = run_cli("documents", "--db", run / "pound.duckdb", "--out", tmp_path,
                           "--case", "M-2610-022", "--case", "N-2610-013")
    assert code == 0, err
    disposal = _text(tmp_path, "M-2610-022")
    assert "Account of the disposal of cattle not claimed" in disposal
    assert "to the disposal on 24-10-2026" in disposal
    # (d): none sold, the one head disposed of; (e) S-009 brought Rs 0.00
    assert "Number of cattle sold 0 disposed of after the bid was rejected (s.15(3), proviso) 1" in disposal
    # nothing left over: no s.18(5) day, and no "surplus of Rs 0.00" to send to the DM
    assert "Nothing is left over for the District Magistrate" in disposal and "surplus of Rs 0.00" not in disposal
    sale = _text(tmp_path, "N-2610-013")
    assert "Account of the sale of impounded cattle" in sale and "after the bid was rejected" not in sale
    assert "to the sale on 09-10-2026" in sale
