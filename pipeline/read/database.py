"""A built database, opened read-only: what every report, workbook and document reads."""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.locks import opened
from pipeline.load.connection import options
from pipeline.load.schema import catalogue
from pipeline.read.select import Cond, col, count, select_records, total

# The tables a reader needs; a database without them has not been built.
REQUIRED_TABLES = ("case_accounts", "fund_movements", "findings", "reconciliation", "monthly_accounts",
                   "deadlines", "district_months", "impoundment_cohorts", "dm_deposit_position",
                   "ledger_entries", "balance_items", "fund_balances",
                   "parameters", "loads")
# Columns a later version added to a model, which a database built before it lacks.
LATER_COLUMNS = {"reconciliation": ("status_amount", "period_month", "difference_due"), "case_accounts": ("sale_due_total",),
                 "security_status": ("case_security_at_rate",), "deadlines": ("by_accounts_date",),
                 "review_log": ("standing",), "doc_findings_memos": ("addressee_key",)}


@cache
def _models() -> list[str]:
    """Every table and view this version's build keeps in the database (its models but the views of
    the build alone; findings from the rules), read once a process."""
    from pipeline.build.models import all_models

    return sorted({m.name for m in all_models() if not m.is_macros and not m.is_temporary} | {"findings"})


def connect(db, wait: float = 0):
    """A read-only connection to a built database; PoundError with a plain reason otherwise.

    Every reading command opens the database this way. Readers do not block one another; while
    a writer (pound ingest, build, run) holds the file, the reader tries again for `wait` seconds.
    """
    import duckdb

    path = Path(db)
    if not path.exists():
        raise PoundError(f"database {path} does not exist; make one with 'pound run BUNDLE --out DIR' "
                         "(it is written to DIR/pound.duckdb)")
    if path.is_dir():
        raise PoundError(f"--db {path} is a folder, not a database file")
    with path.open("rb") as fh:
        if fh.read(12)[8:12] != b"DUCK":          # every DuckDB file says so in its first block
            raise PoundError(f"{path} is not a database written by 'pound run' or 'pound ingest' (it is not a "
                             "DuckDB file: give the pound.duckdb that pound run wrote)")
    try:
        con = opened(lambda: duckdb.connect(str(path), read_only=True, config=options()), path, wait)
    except duckdb.Error as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise PoundError(f"{path} is not a database written by 'pound run' or 'pound ingest' ({reason})") from None
    try:
        check(con, path)
    except PoundError:
        con.close()
        raise
    return con


def check(con, path) -> None:
    """PoundError unless the database `con` has open (the file `path`) is built, by this version."""
    have = {table: {c for c, _ in columns} for table, columns in catalogue(con).items()}
    missing = [t for t in REQUIRED_TABLES if t not in have]
    if missing:
        raise PoundError(f"{path} holds no finished accounts (no table {', '.join(missing)}); "
                         f"compute them with 'pound build --db {path} --out DIR'")
    older = [f"table {t}" for t in _models() if t not in have] + \
        [f"column {t}.{c}" for t, cs in LATER_COLUMNS.items() for c in cs if c not in have.get(t, ())]
    if older:
        raise PoundError(f"{path} was computed by an earlier version of pound (no {', '.join(older[:3])}"
                         f"{', ...' if len(older) > 3 else ''}); compute it again with "
                         f"'pound build --db {path} --out DIR'")


def parameter(con, name: str, default=None):
    """A statutory reading in force when the accounts were built, its JSON value decoded."""
    row = con.execute("SELECT value FROM parameters WHERE name = ?", [name]).fetchone()
    if row is None or row[0] is None:
        return default
    return decoded(row[0])


def decoded(value):
    """A reading as the parameters table holds it: its JSON decoded, or the text as it is."""
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return value


def changed_parameters(con) -> list[tuple[str, str]]:
    """(name, value) of every reading that is not its default (the as-of date aside)."""
    return con.execute("SELECT name, value FROM parameters WHERE NOT is_default AND name <> 'as_of' "
                       "ORDER BY name").fetchall()


def as_of(con) -> dt.date | None:
    value = parameter(con, "as_of")
    try:
        return dt.date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def loaded_files(con) -> tuple[int, dt.datetime | None]:
    """How many files were loaded, and when the last one was (marts/load_totals)."""
    r = select_records(con, "load_totals", col("files"), col("last_loaded_at"))[0]
    return int(r["files"]), r["last_loaded_at"]


def rows_left_out(con) -> str:
    """The rows dated after as_of, which the accounts leave out (marts/rows_after_as_of), as one
    phrase: "50 (complaints 1, impoundments 14, ...)", or "none"."""
    parts = select_records(con, "rows_after_as_of", col("register"), col("rows_left_out"), order=["register"])
    if not parts:
        return "none"
    every = select_records(con, "rows_after_as_of", total("rows_left_out"))[0]["rows_left_out"]
    return f"{every:,} (" + ", ".join(f"{r['register']} {r['rows_left_out']:,}" for r in parts) + ")"


def decisions_applied(con) -> str:
    """The District Magistrate's decisions on findings as the build used them (marts/review_log), as
    one line: how many were applied (the latest on each finding), how many a later one superseded,
    how many were set aside and why. A decision dated after the as-of date is applied like any other."""
    rows = select_records(con, "review_log", col("standing"), count("decisions"), order=["standing"],
                          key=["standing"])
    by = {r["standing"]: r["decisions"] for r in rows}
    applied, superseded = by.pop("in force", 0), by.pop("superseded", 0)
    why = {"made on other figures": "made on other figures, the finding reopened",
           "names no finding": "naming no finding the accounts raise",
           "dated after its load day": "dated after the day they were loaded"}
    aside = sum(by.values())
    line = f"decisions on findings: {applied:,} applied, {superseded:,} superseded by a later one, {aside:,} set aside"
    if aside:
        line += " (" + ", ".join(f"{n:,} {why.get(k, k)}" for k, n in sorted(by.items())) + "; see finding_reviews.csv)"
    return line


def districts(con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT DISTINCT district FROM monthly_accounts WHERE district IS NOT NULL ORDER BY 1").fetchall()]


def _blank(given) -> bool:
    return given is None or str(given).strip() == ""


def _spelled(given, known: list[str]) -> str | None:
    """The one of `known` that `given` names, case and surrounding spaces ignored; None if none does."""
    wanted = str(given).strip().lower()
    return next((k for k in known if k.lower() == wanted), None)


def check_district(con, district: str | None) -> str | None:
    """The district as the database spells it (case is ignored), or PoundError naming those it has."""
    if _blank(district):
        return None
    known = districts(con)
    found = _spelled(district, known)
    if found is None:
        raise PoundError(f"no pound is in district {district!r}; the database has "
                         + (", ".join(repr(d) for d in known) if known else "no pounds"))
    return found


def check_local_authority(con, local_authority: str | None, district: str | None = None) -> str | None:
    """The local authority's id as the database spells it (case is ignored), or PoundError naming those it has."""
    if _blank(local_authority):
        return None
    rows = _authorities(con)
    la = _spelled(local_authority, [r[0] for r in rows])
    if la is None:
        raise PoundError(f"no local authority {local_authority!r}; the database has "
                         + (", ".join(r[0] for r in rows) if rows else "none"))
    d = next(d for x, d in rows if x == la)
    if district and d and d != district:
        raise PoundError(f"local authority {la} is in district {d}, not {district}")
    return la


def check_pound(con, pound: str | None) -> str | None:
    """The pound's id as the database spells it (case is ignored), or PoundError naming those it has."""
    if _blank(pound):
        return None
    known = [r["pound_id"] for r in select_records(con, "monthly_accounts", col("pound_id"), count("months"),
                                                   order=["pound_id"])]
    found = _spelled(pound, known)
    if found is None:
        raise PoundError(f"no pound {pound!r}; the database has " + (", ".join(known) if known else "none"))
    return found


def check_cases(con, cases: tuple[str, ...]) -> tuple[str, ...]:
    """The cases named, as the database spells them (case and spaces around them ignored), or
    PoundError naming those the accounts do not hold."""
    wanted = tuple(dict.fromkeys(str(c).strip() for c in cases))
    if not wanted:
        return ()
    found = {r["case_id"] for r in select_records(con, "case_accounts", col("case_id"),
                                                  where=[Cond("case_id", "in", wanted)])}
    if all(c in found for c in wanted):
        return wanted
    # a case written in other letters (m-2608-001): every case id is read, only when one is not found as written
    known = [r["case_id"] for r in select_records(con, "case_accounts", col("case_id"), order=["case_id"])]
    spelled = {c: c if c in found else _spelled(c, known) for c in wanted}
    missing = [c for c, s in spelled.items() if s is None]
    if missing:
        example = f"; they are written as in the impoundments register, for example {known[0]}" if known else ""
        raise PoundError(f"no case {', '.join(repr(m) for m in missing)} in the accounts{example}")
    return tuple(dict.fromkeys(spelled.values()))


def _authorities(con) -> list[tuple[str, str | None]]:
    """(local authority, district) of every local authority whose pounds have monthly accounts
    (every one with a pound), by id."""
    known = select_records(con, "monthly_accounts", col("local_authority_id"), col("district"), count("months"),
                           where=[Cond("local_authority_id", "not_null")], order=["local_authority_id", "district"])
    return [(r["local_authority_id"], r["district"]) for r in known]


def district_of(con, local_authority: str) -> str | None:
    """The district of a local authority (of its pounds), as the monthly accounts file it."""
    return next((d for la, d in _authorities(con) if la == local_authority and d is not None), None)


def stale_warning(db: Path, wait: float = 0) -> str | None:
    """One warning line when files were loaded after the figures were built (None otherwise)."""
    from pipeline.build import record

    con = connect(db, wait=wait)
    try:
        files = record.since(con)
    finally:
        con.close()
    return f"warning: {record.stale_line(files, db)}" if files else None
