"""Turn the text cells of a register into typed values, exactly.

Each value kind of the bundle contract has one SQL expression that types a
cell and one that says whether a non-blank cell failed to parse. Parsing runs
inside DuckDB over the whole file at once, so a million rows take about a
second, and the money path never touches a float: the text '1,200.50' is
split at the decimal point and becomes the integer 120050 paise.
"""

from __future__ import annotations

import duckdb

from pipeline.core.columns import COUNT, DATE, ENUM, FLAG, ID, MONEY, TEXT, TIME, Column, Register, describe_kind
from pipeline.core.errors import Problem
from pipeline.load.bundle import ROW

TRUE_WORDS = ("yes", "y", "true", "1")
FALSE_WORDS = ("no", "n", "false", "0")

# Digits of an amount: plain (1200), western groups (1,200,000) or Indian groups (12,00,000), at
# most 15 digits however grouped (more would not fit a BIGINT of paise).
_MONEY_RE = r"^-?(\d{1,15}|\d{1,3}(,\d{3}){1,4}|\d{1,2}(,\d{2}){1,5},\d{3})(\.\d{1,2})?$"
_TOO_PRECISE_RE = r"^-?[\d,]+\.\d{3,}$"
_ISO_RE = r"^(\d{4})-(\d{1,2})-(\d{1,2})$"
_DMY_RE = r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$"
_DMY_SAME_RE = r"^(\d{1,2}/\d{1,2}/\d{4}|\d{1,2}-\d{1,2}-\d{4})$"
_TIME_RE = r"^(\d{1,2}):(\d{2})(:\d{2})?$"


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _cell(col: str) -> str:
    return f"trim(CAST({_q(col)} AS VARCHAR))"


def typed_expr(col: Column, x: str | None = None) -> str:
    """SQL that turns the column's text into its stored type (NULL when blank or bad).

    The cells of most files have one of a few plain shapes (600, 600.50, 2026-10-01, 01/10/2026,
    09:05): such a cell, told by its length and GLOB patterns (cheaper than the regular
    expressions), is typed by a short cut that gives what the general expression gives for it;
    every other cell goes through the general expression (tests/load/test_values.py holds the
    two to agreeing). `x`: SQL for the cell's text already trimmed (default: the column, trimmed)."""
    x = x or _cell(col.name)
    shortcuts = _plain_shapes(col, x)
    if not shortcuts:
        return general_expr(col, x)
    whens = " ".join(f"WHEN {shape} THEN {value}" for shape, value in shortcuts)
    return f"CASE {whens} ELSE {general_expr(col, x)} END"


_D = "[0-9]"


def _digits(text: str, most: int) -> str:
    """SQL: `text` is 1 to `most` ASCII digits (what \\d{1,most} matches)."""
    return f"(length({text}) BETWEEN 1 AND {most} AND NOT ({text} GLOB '*[!0-9]*'))"


def _plain_shapes(col: Column, x: str) -> list[tuple[str, str]]:
    """(SQL condition, SQL value) of the plain shapes of a kind's cells (text `x`): for a cell of
    that shape the value is what general_expr gives."""
    if col.kind == COUNT:
        return [(_digits(x, 15), f"CAST({x} AS BIGINT)")]
    if col.kind == MONEY:
        # up to 13 digits (the general expression takes 15; the DECIMAL product below keeps to 18
        # digits), and a point and two decimals or none: exact as a DECIMAL(17, 2)
        return [(f"regexp_full_match({x}, '\\d{{1,13}}(\\.\\d\\d)?')",
                 f"CAST(CAST({x} AS DECIMAL(17, 2)) * CAST(100 AS DECIMAL(3, 0)) AS BIGINT)")]
    if col.kind == DATE:
        dmy = f"try_cast(substr({x}, 7, 4) || '-' || substr({x}, 4, 2) || '-' || substr({x}, 1, 2) AS DATE)"
        return [(f"{x} GLOB '{_D * 4}-{_D * 2}-{_D * 2}'", f"try_cast({x} AS DATE)"),
                (f"({x} GLOB '{_D * 2}/{_D * 2}/{_D * 4}' OR {x} GLOB '{_D * 2}-{_D * 2}-{_D * 4}')", dmy)]
    if col.kind == TIME:
        return [(f"{x} GLOB '{_D * 2}:{_D * 2}'", f"CASE WHEN CAST(substr({x}, 1, 2) AS INTEGER) < 24 AND "
                                                  f"CAST(substr({x}, 4, 2) AS INTEGER) < 60 THEN {x} ELSE NULL END")]
    return []


def general_expr(col: Column, x: str | None = None) -> str:
    """SQL that types any cell of the column's kind (typed_expr takes short cuts for plain shapes);
    `x` as for typed_expr."""
    x = x or _cell(col.name)
    blank = f"({x} = '')"
    k = col.kind
    if k in (ID, TEXT):
        return f"CASE WHEN {blank} THEN NULL ELSE {x} END"
    if k == ENUM:
        # listed values are read in any case and kept as the list writes them (cattle, REL-UNPAID)
        fold = "upper" if col.values and all(v == v.upper() for v in col.values) else "lower"
        return f"CASE WHEN {blank} THEN NULL ELSE {fold}({x}) END"
    if k == FLAG:
        t = ", ".join(f"'{w}'" for w in TRUE_WORDS)
        f = ", ".join(f"'{w}'" for w in FALSE_WORDS)
        return (f"CASE WHEN {blank} THEN false WHEN lower({x}) IN ({t}) THEN true "
                f"WHEN lower({x}) IN ({f}) THEN false ELSE NULL END")
    if k == COUNT:
        return f"CASE WHEN regexp_full_match({x}, '^-?\\d{{1,15}}$') THEN CAST({x} AS BIGINT) ELSE NULL END"
    # The expressions are kept short: DuckDB's planning of a file's typing statement grows with
    # their size, and it is most of what typing a district's file costs.
    if k == MONEY:
        # at most 15 digits and two decimals, commas taken out: exact as a DECIMAL (one of 38 digits,
        # so that the product by 100 is not held to 18)
        return (f"CASE WHEN regexp_full_match({x}, '{_MONEY_RE}') THEN "
                f"CAST(CAST(replace({x}, ',', '') AS DECIMAL(38, 2)) * 100 AS BIGINT) ELSE NULL END")
    if k == DATE:
        # DuckDB reads a year, month and day of one or two digits (2026-1-5) as it reads them padded
        return (f"CASE WHEN regexp_full_match({x}, '{_ISO_RE}') THEN try_cast({x} AS DATE) "
                f"WHEN regexp_full_match({x}, '{_DMY_SAME_RE}') THEN "
                f"try_cast(regexp_replace({x}, '{_DMY_RE}', '\\3-\\2-\\1') AS DATE) ELSE NULL END")
    if k == TIME:
        t = f"regexp_extract({x}, '{_TIME_RE}', ['h', 'm'])"
        return (f"CASE WHEN regexp_full_match({x}, '{_TIME_RE}') AND CAST({t}.h AS INTEGER) < 24 "
                f"AND CAST({t}.m AS INTEGER) < 60 THEN printf('%02d:%s', CAST({t}.h AS INTEGER), {t}.m) ELSE NULL END")
    raise ValueError(k)


def _why(col: Column) -> str:
    """SQL giving the message for a non-blank cell that did not parse."""
    x = _cell(col.name)
    expected = describe_kind(col).replace("'", "''")
    if col.kind == MONEY:
        return (f"CASE WHEN regexp_full_match({x}, '{_TOO_PRECISE_RE}') THEN "
                f"'has more than two decimals; amounts are kept exact to the paisa and are never rounded, so write at most two decimals' "
                f"ELSE 'is not an amount; expected {expected}' END")
    if col.kind == DATE:
        return (f"CASE WHEN regexp_full_match({x}, '{_ISO_RE}') OR regexp_full_match({x}, '{_DMY_SAME_RE}') THEN "
                f"'is not a real calendar date; expected {expected}' "
                f"ELSE 'is not a date; expected {expected}' END")
    if col.kind == COUNT:
        return f"'is not a whole number; expected {expected}'"
    if col.kind == FLAG:
        return f"'is not a yes/no value; expected {expected}'"
    if col.kind == TIME:
        return f"'is not a time of day; expected {expected}'"
    return "'is not valid'"


def _checked(col: Column) -> bool:
    """Whether a non-blank cell of the column can fail to parse (any text is a valid id or text;
    listed values are checked by GX)."""
    return col.kind not in (ID, TEXT, ENUM)


def typed_select(reg: Register, raw: str, extra: list[str], unparsed: bool = False,
                 blank_rows: bool = False, passed: tuple[str, ...] = ()) -> str:
    """SELECT that types every declared column of the raw view, keeping the row number.

    Wholly blank rows (an empty line in the file) are dropped here, or, with `blank_rows`, kept
    and told by the column _blank. `unparsed` adds the column _unparsed: whether a non-blank cell
    of the row did not parse (parse_problems words them). `passed`: columns of `raw` kept as they are.
    """
    every = reg.names + extra
    # each cell is trimmed once, in the inner SELECT; `t<i>` is the trimmed text of column i
    trimmed = ([f"CAST({_q(ROW)} AS BIGINT) AS {_q(ROW)}"] + [_q(p) for p in passed]
               + [f"{_cell(c)} AS t{i}" for i, c in enumerate(every)])
    text = {c: f"t{i}" for i, c in enumerate(every)}
    parts = [_q(ROW)] + [_q(p) for p in passed]
    for col in reg.columns:
        parts.append(f"{typed_expr(col, text[col.name])} AS {_q(col.name)}")
    if extra:
        keys = ", ".join(f"'{e.replace(chr(39), chr(39) * 2)}'" for e in extra)
        vals = ", ".join(text[e] for e in extra)
        parts.append(f"CAST(map([{keys}], [{vals}]) AS MAP(VARCHAR, VARCHAR)) AS _extra")
    else:
        parts.append("CAST(NULL AS MAP(VARCHAR, VARCHAR)) AS _extra")
    not_blank = " OR ".join(f"{text[c]} <> ''" for c in every)
    where = ""
    if blank_rows:
        parts.append(f"NOT ({not_blank}) AS _blank")
    else:
        where = f" WHERE {not_blank}"
    if not unparsed:
        return f"SELECT {', '.join(parts)} FROM (SELECT {', '.join(trimmed)} FROM {raw}){where}"
    checked = [c for c in reg.columns if _checked(c)]
    texts = [f"{text[c.name]} AS {_q('_text_' + c.name)}" for c in checked]
    failed = " OR ".join(f"({_q('_text_' + c.name)} <> '' AND {_q(c.name)} IS NULL)" for c in checked) or "false"
    hidden = ", ".join(_q("_text_" + c.name) for c in checked)
    # the typed values are computed once, in the inner SELECT, beside the text they came from
    inner = f"SELECT {', '.join(parts + texts)} FROM (SELECT {', '.join(trimmed)} FROM {raw}){where}"
    return f"SELECT * {f'EXCLUDE ({hidden})' if hidden else ''}, {failed} AS _unparsed FROM ({inner})"


def parse_problems(con: duckdb.DuckDBPyConnection, reg: Register, raw: str, label: str,
                   limit: int, rows: str | None = None) -> tuple[list[Problem], int]:
    """Every non-blank cell that does not parse as its column's kind (at most `limit` listed).
    `rows`: SQL for the rows to look at (those with a cell that did not parse), when known."""
    checks = []
    where = f" AND {_q(ROW)} IN {rows}" if rows else ""
    for col in reg.columns:
        if not _checked(col):
            continue
        x = _cell(col.name)
        checks.append(
            f"SELECT CAST({_q(ROW)} AS BIGINT) AS r, '{col.name}' AS c, {x} AS v, {_why(col)} AS m "
            f"FROM {raw} WHERE {x} <> '' AND ({typed_expr(col)}) IS NULL{where}")
    if not checks:
        return [], 0
    if rows and not con.execute(f"SELECT EXISTS {rows}").fetchone()[0]:
        return [], 0
    union = " UNION ALL ".join(checks)
    total = con.execute(f"SELECT count(*) FROM ({union})").fetchone()[0]
    found = con.execute(f"SELECT r, c, v, m FROM ({union}) ORDER BY r, c LIMIT {int(limit)}").fetchall()
    return [Problem(label, r, c, v, m) for r, c, v, m in found], total
