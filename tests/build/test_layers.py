"""The SQL models are layered, and only look back; the presentation reads finished models only."""

from __future__ import annotations

import re
from pathlib import Path

from pipeline.build import LAYERS, Model, build_order, check_layers, inferred_casts
from pipeline.build.models import MANIFEST, casts, manifest_files, parsed_manifest, reads, tables_read
from pipeline.core.paths import SQL_DIR
from pipeline.core.registers import REGISTERS
from pipeline.load.schema import CLOSE_TABLES

ROOT = Path(__file__).resolve().parents[2]


def test_every_model_reads_only_earlier_layers():
    assert check_layers(build_order()) == []


def test_every_folder_of_sql_is_a_declared_layer():
    folders = {p.name for p in SQL_DIR.iterdir() if p.is_dir()}
    assert folders == set(LAYERS)


def test_staging_only_types_renames_and_applies_as_of():
    for m in build_order():
        if m.layer == "staging" and not m.is_macros:
            assert "JOIN" not in m.sql.upper(), f"{m.name} joins: that belongs to the intermediate layer"
            assert m.reads <= {r.table for r in REGISTERS} | {"loads", "register_columns", "parameters"} | set(CLOSE_TABLES), \
                m.name


def test_the_shared_macros_read_no_table():
    """sql/macros.sql belongs to no layer: every layer uses it, so it may read nothing (those that look
    a table up are in intermediate/_macros.sql)."""
    assert tables_read((SQL_DIR / "macros.sql").read_text(encoding="utf-8")) == frozenset()
    assert tables_read("CREATE MACRO m(x) AS (SELECT max(rate) FROM rates WHERE k = x)") == {"rates"}


def test_the_check_sees_a_model_that_reads_ahead():
    ms = build_order()
    bad = Model("stg_peek", "staging", SQL_DIR / "staging" / "stg_peek.sql", "SELECT * FROM case_accounts",
                frozenset({"case_accounts"}))
    early = Model("int_peek", "intermediate", SQL_DIR / "intermediate" / "int_peek.sql",
                  "SELECT * FROM findings", frozenset({"findings"}))
    raw = Model("leaky", "accounts", SQL_DIR / "accounts" / "leaky.sql", "SELECT * FROM releases",
                frozenset({"releases"}))
    problems = check_layers([bad, *ms[:20], early, raw, *ms[20:]])
    assert any("stg_peek" in p and "case_accounts" in p for p in problems)
    assert any("int_peek" in p and "findings" in p for p in problems)
    assert any("leaky" in p and "releases" in p for p in problems)


def test_tables_read_leaves_out_ctes_and_sees_subqueries():
    sql = ("WITH a AS (SELECT * FROM t1) SELECT * FROM a JOIN t2 USING (k) "
           "WHERE EXISTS (SELECT 1 FROM t3) AND k IN (SELECT k FROM range(3) r(k))")
    assert tables_read(sql) == {"t1", "t2", "t3"}


def test_the_manifest_is_duckdbs_parse_of_every_sql_file():
    """The build orders the models by the committed manifest and casts the HUGEINT columns it names
    as it makes each table: it must say, for every SQL file as it is now, what DuckDB's parse says it
    reads, and for every model which columns DuckDB makes HUGEINT (after changing a model: `make manifest`)."""
    import json

    committed = json.loads(MANIFEST.read_text(encoding="utf-8"))["files"]
    hugeint = inferred_casts()
    parsed = parsed_manifest(hugeint)["files"]
    assert sorted(committed) == sorted(parsed), "files added or gone since `make manifest`"
    for name, entry in parsed.items():
        assert committed[name] == entry, f"sql/{name} changed since `make manifest`"
    assert len(parsed) == len(manifest_files()) > 90
    # every model has its entry, and DuckDB's sums are among them (a check that can find nothing proves nothing)
    models = [m for m in build_order() if not m.is_macros and m.name != "findings"]
    assert all(m.casts is not None for m in models) and len(models) == len(hugeint) - 1
    assert "feeding_due" in hugeint["case_accounts"]


def test_a_file_the_manifest_does_not_hold_is_parsed():
    """An edited model is not ordered by a stale entry: its text is not in the manifest, so it is parsed."""
    sql = (SQL_DIR / "intermediate" / "int_case_timeline.sql").read_text(encoding="utf-8")
    assert reads(sql) == tables_read(sql)
    edited = sql + "\nCROSS JOIN stg_pounds"
    assert "stg_pounds" in reads(edited) and "stg_pounds" not in reads(sql)
    assert casts(sql) is not None and casts(edited) is None    # its types are then read off the catalogue


_PARAM_READ = re.compile(r"getvariable\('([a-z_0-9]+)'\)")


def _days_added(sql: str, where: str) -> list[str]:
    """The parameters counted in days (a grace, a window) that `sql` reads: a rule, deadlines or a
    paper that reads one works a day out itself (deadlines may read its horizon, which is no day)."""
    from pipeline.core.params import PARAMS

    days = {p.name for p in PARAMS if p.unit == "days"} - ({"deadline_horizon"} if where == "deadlines" else set())
    return [name for name in _PARAM_READ.findall(sql) if name in days]


def test_no_rule_adds_a_grace_to_a_day():
    """Each day with its grace is a column of the intermediate model that defines its base day
    (int_case_timeline, int_protests, ...): the rules, deadlines and the papers read it."""
    readers = [*sorted((SQL_DIR / "rules").glob("*.sql")), SQL_DIR / "marts" / "deadlines.sql",
               *sorted((SQL_DIR / "marts").glob("doc_*.sql")), SQL_DIR / "findings.sql"]
    assert len(readers) > 30
    for path in readers:
        assert _days_added(path.read_text(encoding="utf-8"), path.stem) == [], \
            f"{path.relative_to(SQL_DIR)} adds a grace or window to a day: read the intermediate model's column"
    # the near miss: the way the rules wrote it before
    assert _days_added("WHERE as_of() > sale_allowed_on + getvariable('sale_grace')", "S15-SALE-OVERDUE") == ["sale_grace"]
    assert _days_added("WHERE e.due_on - getvariable('deadline_horizon') <= m", "deadlines") == []


def _sources(*folders: str):
    for folder in folders:
        for path in sorted((ROOT / "pipeline" / folder).rglob("*.py")):
            yield path, path.read_text(encoding="utf-8")


def test_the_presentation_reads_finished_models_and_never_joins():
    """Reports, workbooks and what they share read finished models through pipeline.read.select:
    no join, no staging or intermediate table, no register read for a figure."""
    staged = re.compile(r"\b(stg|int)_[a-z_]+")
    raw = re.compile(r"\bFROM\s+(" + "|".join(sorted({r.table for r in REGISTERS} | {"loads"})) + r")\b")
    for path, text in _sources("reports", "read", "outputs", "documents"):
        assert not re.search(r"\bJOIN\b", text), f"{path} joins tables"
        assert not staged.search(text), f"{path} reads a staging or intermediate table"
        assert not raw.search(text), f"{path} reads a register or the loads table itself"
        if path.name != "select.py":            # the one place a selection's sums are written
            assert not re.search(r"\bGROUP\s+BY\b", text), f"{path} adds up a model in its own SQL"
    for path in sorted((ROOT / "notebooks").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        # explore.py shows analysts its SQL, on finished models only and without a join
        assert not re.search(r"\bJOIN\b" if path.stem == "explore" else r"\b(SELECT|JOIN)\b", text), path
        assert not staged.search(text), path


def test_the_current_version_of_a_key_is_written_once(tmp_path):
    """The models read a register's current versions through current_<table>() and the loader
    through current_rows(), both made from the one definition in load/schema.py: no SQL file writes
    the filter itself, and the two give the same rows."""
    from helpers import inserted_into

    from pipeline.load import schema

    for path in SQL_DIR.rglob("*.sql"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"later\._version|max\(_version\)", text), f"{path.name} writes the current version itself"
    con = inserted_into(tmp_path / "pound.duckdb", ROOT / "data" / "sample")
    con.execute(schema.current_macros())
    for reg in REGISTERS:
        by_macro = con.execute(f"SELECT * FROM current_{reg.table}() ORDER BY ALL").fetchall()
        assert by_macro == con.execute(f"SELECT * FROM {schema.current_rows(reg)} ORDER BY ALL").fetchall(), reg.table
    every, current = con.execute("SELECT (SELECT count(*) FROM impoundments), "
                                 "(SELECT count(*) FROM current_impoundments())").fetchone()
    assert every == current + 1      # the sample's one correction: M-2608-001's owner, sent again
