"""A close seals the month's review as it was rendered: the pages of the review made from the very
build being closed are copied into the close, and only the monthly review, which prints the close
and its figures id, is rendered again (reports/render.py kept_pages)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from test_close import fresh

from pipeline import steps
from pipeline.build.record import Build
from pipeline.reports import render
from pipeline.steps.month import folder_of

MONTH = "2026-10"
SCOPE = {"month": MONTH, "district": None, "local_authority": None, "period": None, "self_contained": False}
BUILD = Build(7, dt.datetime(2026, 11, 2, 10, 0), dt.date(2026, 10, 31), 12)


def _review_folder(tmp_path):
    """Four stand-in pages and their record, as a review of BUILD writes them."""
    folder = tmp_path / "month"
    folder.mkdir()
    paths = render.report_paths(folder, MONTH, None)
    for p in paths:
        p.write_text(f"<html>{p.stem}</html>", encoding="utf-8")
    render._record_pages(folder, BUILD, SCOPE, paths)
    return folder, paths


def test_the_pages_of_the_same_build_and_scope_are_kept(tmp_path):
    folder, paths = _review_folder(tmp_path)
    assert render.kept_pages(folder, BUILD, SCOPE) == dict(zip([n for n, _ in render.REPORTS], paths, strict=True))


@pytest.mark.parametrize("change", ["another build", "the same build number in another database", "another district",
                                    "another local authority", "self-contained", "no record"])
def test_pages_of_another_build_or_scope_are_not_kept(tmp_path, change):
    folder, _ = _review_folder(tmp_path)
    built, scope = BUILD, dict(SCOPE)
    if change == "another build":
        built = Build(8, BUILD.built_at, BUILD.as_of, BUILD.last_load_id)
    elif change == "the same build number in another database":
        built = Build(7, BUILD.built_at + dt.timedelta(seconds=1), BUILD.as_of, BUILD.last_load_id)
    elif change == "another district":
        scope["district"] = "Mandya"
    elif change == "another local authority":
        scope["local_authority"] = "LA01"
    elif change == "self-contained":
        scope["self_contained"] = True
    else:
        (folder / render.PAGES_RECORD).unlink()
    assert render.kept_pages(folder, built, scope) == {}


def test_a_page_changed_since_it_was_rendered_is_not_kept(tmp_path):
    folder, paths = _review_folder(tmp_path)
    paths[2].write_text("<html>trends, edited by hand</html>", encoding="utf-8")
    assert sorted(render.kept_pages(folder, BUILD, SCOPE)) == ["explore", "monthly_review", "reconciliation"]
    (folder / render.PAGES_RECORD).write_text("{not json", encoding="utf-8")
    assert render.kept_pages(folder, BUILD, SCOPE) == {}


def test_a_page_and_its_record_both_changed_are_not_kept_unless_the_database_printed_it(tmp_path):
    # the record beside the pages is a file like them: a page planted and its hash written into the
    # record is kept only if the database holds that hash among the pages printed from the build
    folder, paths = _review_folder(tmp_path)
    printed = {(p.name, render.file_sha256(p)) for p in paths}
    assert render.kept_pages(folder, BUILD, SCOPE, printed=printed) == render.kept_pages(folder, BUILD, SCOPE)
    paths[1].write_text("<html>reconciliation, Rs 4,850.00 credited</html>", encoding="utf-8")
    said = json.loads((folder / render.PAGES_RECORD).read_text(encoding="utf-8"))
    said["pages"][paths[1].name] = render.file_sha256(paths[1])
    (folder / render.PAGES_RECORD).write_text(json.dumps(said), encoding="utf-8")
    assert sorted(render.kept_pages(folder, BUILD, SCOPE, printed=printed)) == ["explore", "monthly_review", "trends"]
    assert render.kept_pages(folder, BUILD, SCOPE, printed=set()) == {}


@pytest.mark.notebook
def test_a_close_after_the_review_renders_only_the_page_it_seals(shared, tmp_path, monkeypatch):
    bundle, db = fresh(shared, tmp_path)
    review = folder_of(db.parent, MONTH)
    steps.review(db, review, month=MONTH)
    rendered = []
    run = render._run_notebook
    monkeypatch.setattr(render, "_run_notebook", lambda name, *a, **k: rendered.append(name) or run(name, *a, **k))
    # a page of the review altered by hand is rendered again for the close: the twin of what is kept
    edited = render.report_paths(review, MONTH, None)[2]
    edited.write_text(edited.read_text(encoding="utf-8") + "<!-- edited -->", encoding="utf-8")
    done = steps.close(db, bundle, MONTH, "DM Dist")
    assert rendered == ["monthly_review", "trends"]
    for name in ("reconciliation", "explore"):
        page = f"{name}_{MONTH}.html"
        assert (done.folder / page).read_bytes() == (review / page).read_bytes()
    assert "<!-- edited -->" not in (done.folder / edited.name).read_text(encoding="utf-8")
    assert "figures id" in (done.folder / f"monthly_review_{MONTH}.html").read_text(encoding="utf-8")
    record = json.loads((done.folder / "close.json").read_text(encoding="utf-8"))
    assert render.PAGES_RECORD not in record["files"] and f"reconciliation_{MONTH}.html" in record["files"]
    assert steps.verify(done.folder, bundle).intact
