"""What `pound month` says comes next: "decisions loaded" means decision files
loaded after the review last printed for the month (steps.state.decided_at_the_meeting). The sample
bundle holds earlier decisions (registers/finding_reviews.csv): its first month has had no
meeting yet, so it sends the office to the meeting, not to the close."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from helpers import office_copy

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_month_of_the_sample_sends_the_office_to_the_meeting_not_the_close(tmp_path, run_cli, monkeypatch,
                                                                                    shared):
    from pipeline import steps
    from pipeline.steps.state import DECIDED_UNBUILT, REVIEWED

    # the sample as mysuru/ with November's `pound month` run (--out r11; the pages by a stand-in): the
    # office made once a session and copied here (helpers.office_copy), and what its month said
    out = office_copy(shared, tmp_path, monkeypatch)
    bundle, db = tmp_path / "mysuru", tmp_path / "pound.duckdb"
    nexts = [ln for ln in out.splitlines() if ln.startswith(("next:", "then:"))]
    assert nexts[0].startswith("next: the decisions go into") and "pound close" in nexts[1], out
    assert "the decisions loaded are in these figures" not in out
    assert steps.state(db, "2026-11", bundle).stage == REVIEWED
    # the meeting's decision on an open finding of November, loaded and not built
    finding = next(r for r in _rows(tmp_path / "r11" / "exports" / "findings.csv")
                   if r["month"] == "2026-11" and r["review_status"] == "open")
    (bundle / "registers" / "finding_reviews_2026-11.csv").write_text(
        "rule_id,subject_id,reviewed_on,reviewed_by,decision,note\n"
        f"{finding['rule_id']},{finding['subject_id']},03/12/2026,District Magistrate,action_ordered,At the meeting\n",
        encoding="utf-8")
    code, _, err = run_cli("ingest", bundle, "--db", db, "--as-of", "2026-11-30")
    assert code == 0, err
    assert steps.state(db, "2026-11", bundle).stage == DECIDED_UNBUILT
    # the month again: the decisions are in its figures, and the close comes next
    code, out, err = run_cli("month", bundle, "--db", db, "--month", "2026-11")
    assert code == 0, err
    assert "the decisions loaded are in these figures" in out and "next: pound close" in out
    assert steps.state(db, "2026-11", bundle).stage == REVIEWED      # the review printed holds them


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_month_refuses_an_out_that_is_a_file_before_it_loads_anything(tmp_path, run_cli):
    bundle = tmp_path / "mysuru"
    shutil.copytree(ROOT / "data" / "sample", bundle)
    db = tmp_path / "pound.duckdb"
    for out in (tmp_path / "a_file", tmp_path / "month" / "exports"):
        out.parent.mkdir(exist_ok=True)
        out.write_text("the office's", encoding="utf-8")
        code, stdout, err = run_cli("month", bundle, "--db", db, "--month", "2026-11", "--out",
                                    tmp_path / ("a_file" if out.name == "a_file" else "month"))
        assert code == 1 and stdout == "" and len(err.strip().splitlines()) == 1, err
        assert "exists and is not a folder" in err and str(out) in err
        assert not db.exists()                   # nothing loaded
        assert out.read_text(encoding="utf-8") == "the office's"


def test_month_prints_the_builds_notes(tmp_path, run_cli, monkeypatch, shared):
    """Drawn up to a day after today, the build's note says so (and the month says the build's notes)."""
    import datetime as dt

    # the office of the test above (helpers.office_copy): the sample loaded and November's month run
    said = office_copy(shared, tmp_path, monkeypatch)
    ahead = dt.date.today() + dt.timedelta(days=20)
    code, _, err = run_cli("month", "mysuru", "--db", "pound.duckdb", "--month", "2026-11", "--as-of", ahead.isoformat())
    assert code == 0, err
    assert f"note: the accounts are drawn up to {ahead:%d-%m-%Y}, after today" in err
    # the near miss: the office's month, drawn up to the month's end, already past, said no such note
    assert "after today" not in said
