"""A user's mistake the desk meets before any action is said in one line, not a 500 or a traceback:
a folder under the bundle's closes/ that is no close (steps.state raises PoundError, the page shows
it), and a folder given to `pound desk --db`. Each beside its near-miss twin."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from pipeline.desk import looked
from pipeline.steps.state import STAGES

ROOT = Path(__file__).resolve().parents[2]


def test_every_stage_of_the_steps_has_the_desks_next_step():
    assert set(looked.NEXT) == set(STAGES)


def _close(folder: Path, **drop) -> None:
    folder.mkdir(parents=True)
    record = {"format": "pound-close/1", "month": "2026-10", "closed_by": "DM", "closed_at": "2026-11-03 10:00:00",
              "as_of": "2026-10-31"}
    (folder / "close.json").write_text(json.dumps({k: v for k, v in record.items() if k not in drop}))


@pytest.mark.parametrize("broken, says", [
    (lambda f: f.mkdir(parents=True), "holds no close.json"),
    (lambda f: _close(f, closed_at=None), "key 'closed_at' is missing"),
])
def test_a_folder_under_closes_that_is_no_close_is_said_in_one_line_on_the_page(desk_of, broken, says):
    d = desk_of()
    broken(d.places.bundle / "closes" / "2026-10")
    r = d.get("/?month=2026-11")
    assert r.status_code == 200, r.text[:300]
    problem = html.unescape(r.text.split('id="problem">', 1)[1].split("</p>", 1)[0])
    assert says in problem and "2026-10" in problem and "\n" not in problem
    assert "cannot be read" in r.text and 'name="token"' in r.text            # the page, its buttons still there


def test_its_twin_a_close_as_pound_close_writes_it_shows_the_month_closed(desk_of):
    d = desk_of()
    _close(d.places.bundle / "closes" / "2026-10")
    r = d.get("/?month=2026-10")
    assert r.status_code == 200 and 'id="problem"' not in r.text
    assert "2026-10: closed (2026-10)" in r.text


def test_pound_desk_refuses_a_folder_given_as_the_database_in_one_line(run_cli, tmp_path):
    code, out, err = run_cli("desk", "--bundle", ROOT / "data/sample", "--db", tmp_path, "--port", "0")
    assert code == 1 and out == ""
    assert err.strip() == f"pound: --db {tmp_path} is a folder: give the database file, for example {tmp_path / 'pound.duckdb'}"
