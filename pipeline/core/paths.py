"""Where the package's own files are: its SQL models and templates, and, beside the
package in a checkout, the notebooks, expectation suites, docs and sample bundle."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
ROOT = PACKAGE_DIR.parent
SQL_DIR = PACKAGE_DIR / "sql"
NOTEBOOK_DIR = ROOT / "notebooks"
SUITES_DIR = ROOT / "expectations"
DOCS_DIR = ROOT / "docs"
SAMPLE_BUNDLE = ROOT / "data" / "sample"
DEMO_DB = ROOT / "demo" / "pound.duckdb"


def database(db=None) -> Path:
    """The database a notebook reads: its `db` parameter when given, else $POUND_DB, else the demo's."""
    return Path(db or os.environ.get("POUND_DB") or DEMO_DB)
