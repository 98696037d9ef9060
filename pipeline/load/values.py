"""Turn the text cells of a register into typed values, exactly.

Each value kind of the bundle contract has one SQL expression that types a
cell and one that says whether a non-blank cell failed to parse. Parsing runs
inside DuckDB over the whole file at once, so a million rows take about a
second, and the money path never touches a float: the text '1,200.50' is
split at the decimal point and becomes the integer 120050 paise.
"""

from __future__ import annotations

import duckdb

from pipeline.core.errors import Problem
from pipeline.core.registers import COUNT, DATE, ENUM, FLAG, ID, MONEY, TEXT, TIME, Column, Register, describe_kind
from pipeline.load.bundle import ROW

TRUE_WORDS = ("yes", "y", "true", "1")
FALSE_WORDS = ("no", "n", "false", "0")

# Digits of an amount: plain (1200), western groups (1,200,000) or Indian groups (12,00,000).
_MONEY_RE = r"^-?(\d{1,15}|\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})+,\d{3})(\.\d{1,2})?$"
_TOO_PRECISE_RE = r"^-?[\d,]+\.\d{3,}$"
_ISO_RE = r"^(\d{4})-(\d{1,2})-(\d{1,2})$"
_DMY_RE = r"^(\d{1,2})([/-])(\d{1,2})([/-])(\d{4})$"
_DMY_SAME_RE = r"^(\d{1,2}/\d{1,2}/\d{4}|\d{1,2}-\d{1,2}-\d{4})$"
_TIME_RE = r"^(\d{1,2}):(\d{2})(:\d{2})?$"


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _cell(col: str) -> str:
    return f"trim(CAST({_q(col)} AS VARCHAR))"


def typed_expr(col: Column) -> str:
    """SQL that turns the column's text into its stored type (NULL when blank or bad)."""
    x = _cell(col.name)
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
    if k == MONEY:
        s = f"replace({x}, ',', '')"
        digits = f"ltrim({s}, '-')"
        paise = (f"(CAST(split_part({digits}, '.', 1) AS BIGINT) * 100 + "
                 f"CAST(rpad(split_part({digits}, '.', 2), 2, '0') AS BIGINT))")
        return (f"CASE WHEN regexp_full_match({x}, '{_MONEY_RE}') THEN "
                f"(CASE WHEN starts_with({x}, '-') THEN -1 ELSE 1 END) * {paise} ELSE NULL END")
    if k == DATE:
        iso = f"regexp_extract({x}, '{_ISO_RE}', ['y', 'm', 'd'])"
        dmy = f"regexp_extract({x}, '{_DMY_RE}', ['d', 's1', 'm', 's2', 'y'])"
        return (
            f"CASE WHEN regexp_full_match({x}, '{_ISO_RE}') THEN "
            f"try_cast(printf('%s-%s-%s', {iso}.y, lpad({iso}.m, 2, '0'), lpad({iso}.d, 2, '0')) AS DATE) "
            f"WHEN regexp_full_match({x}, '{_DMY_RE}') AND {dmy}.s1 = {dmy}.s2 THEN "
            f"try_cast(printf('%s-%s-%s', {dmy}.y, lpad({dmy}.m, 2, '0'), lpad({dmy}.d, 2, '0')) AS DATE) "
            f"ELSE NULL END")
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


def typed_select(reg: Register, raw: str, extra: list[str]) -> str:
    """SELECT that types every declared column of the raw view, keeping the row number.

    Wholly blank rows (an empty line in the file) are dropped here.
    """
    parts = [f"CAST({_q(ROW)} AS BIGINT) AS {_q(ROW)}"]
    for col in reg.columns:
        parts.append(f"{typed_expr(col)} AS {_q(col.name)}")
    if extra:
        keys = ", ".join(f"'{e.replace(chr(39), chr(39) * 2)}'" for e in extra)
        vals = ", ".join(_cell(e) for e in extra)
        parts.append(f"CAST(map([{keys}], [{vals}]) AS MAP(VARCHAR, VARCHAR)) AS _extra")
    else:
        parts.append("CAST(NULL AS MAP(VARCHAR, VARCHAR)) AS _extra")
    every = reg.names + extra
    not_blank = " OR ".join(f"{_cell(c)} <> ''" for c in every)
    return f"SELECT {', '.join(parts)} FROM {raw} WHERE {not_blank}"


def parse_problems(con: duckdb.DuckDBPyConnection, reg: Register, raw: str, label: str,
                   limit: int) -> tuple[list[Problem], int]:
    """Every non-blank cell that does not parse as its column's kind (at most `limit` listed)."""
    checks = []
    for col in reg.columns:
        if col.kind in (ID, TEXT, ENUM):
            continue                      # any text is a valid id or text; sets are checked by GX
        x = _cell(col.name)
        checks.append(
            f"SELECT CAST({_q(ROW)} AS BIGINT) AS r, '{col.name}' AS c, {x} AS v, {_why(col)} AS m "
            f"FROM {raw} WHERE {x} <> '' AND ({typed_expr(col)}) IS NULL")
    if not checks:
        return [], 0
    union = " UNION ALL ".join(checks)
    total = con.execute(f"SELECT count(*) FROM ({union})").fetchone()[0]
    rows = con.execute(f"SELECT r, c, v, m FROM ({union}) ORDER BY r, c LIMIT {int(limit)}").fetchall()
    return [Problem(label, r, c, v, m) for r, c, v, m in rows], total
