"""Fixtures of the report tests: the sample run once, its reports rendered for a busy month
and a quiet one, a database with two districts, the golden bundle's August, and a browser."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import REFERENCE, case, load, make_bundle

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.read.database import connect
from pipeline.reports.render import REPORTS, render_reports

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_BUNDLE = ROOT / "tests" / "golden" / "bundle"


def render(db: Path, month: str, district, out: Path) -> dict[str, Path]:
    paths = render_reports(db, month, district, out)
    assert all(p.parent == out and p.stat().st_size > 0 for p in paths)
    return {name: p for (name, _), p in zip(REPORTS, paths, strict=True)}


@pytest.fixture(scope="session")
def sample_db(shared) -> Path:
    return shared.run(ROOT / "data" / "sample", "2026-11-30") / "pound.duckdb"


@pytest.fixture(scope="session")
def con(sample_db):
    c = connect(sample_db)
    yield c
    c.close()


@pytest.fixture(scope="session")
def october(sample_db, tmp_path_factory) -> dict[str, Path]:
    return render(sample_db, "2026-10", None, tmp_path_factory.mktemp("reports_2026-10"))


@pytest.fixture(scope="session")
def quiet_month(sample_db, tmp_path_factory) -> dict[str, Path]:
    # a month with no activity, and the district written in lower case
    return render(sample_db, "2026-05", "mysuru", tmp_path_factory.mktemp("reports_2026-05"))


@pytest.fixture(scope="session")
def golden_db(shared) -> Path:
    return shared.run(GOLDEN_BUNDLE, "2026-12-31") / "pound.duckdb"


@pytest.fixture(scope="session")
def golden_august(golden_db) -> dict[str, Path]:
    return render(golden_db, "2026-08", None, golden_db.parent / "reports")


@pytest.fixture(scope="session")
def two_districts(tmp_path_factory) -> Path:
    """A built database with a pound in Mysuru (P1) and one in Mandya (P2)."""
    root = tmp_path_factory.mktemp("two_districts")
    las = [dict(r) for r in REFERENCE["local_authorities"]]
    las[1]["district"] = "Mandya"
    pounds = [dict(r) for r in REFERENCE["pounds"]]
    pounds[1]["district"] = "Mandya"
    bundle = make_bundle(root / "bundle", local_authorities=las, pounds=pounds,
                         impoundments=[case("C1", "P1", "2026-10-03", head_count=2, owner_id="O1"),
                                       case("C2", "P2", "2026-10-05", head_count=3, owner_id="O2"),
                                       case("C3", "P2", "2026-10-20", head_count=1, owner_id="O2")])
    path = root / "pound.duckdb"
    c, result = load(bundle, path)
    assert not result.rejected
    build(c, Parameters({}, as_of=dt.date(2026, 11, 30)))
    c.close()
    return path


