"""Paise as rupee text: the one way Python code writes an amount (the SQL macro rupees()
in pipeline/sql/macros.sql does the same inside DuckDB, for the CSV exports)."""

from __future__ import annotations


def paise_text(paise: int, grouping: bool = False) -> str:
    """Integer paise as rupees with exactly two decimals, by integer arithmetic only:
    -5000 -> '-50.00'; with grouping, Indian digit groups: 12000000 -> '1,20,000.00'."""
    p = int(paise)
    sign = "-" if p < 0 else ""
    whole, frac = divmod(abs(p), 100)
    return f"{sign}{indian_digits(whole) if grouping else whole}.{frac:02d}"


def indian_digits(n: int) -> str:
    """A whole number in Indian digit groups: the last three digits, then pairs (12,34,567)."""
    s = str(int(n))
    if len(s) <= 3:
        return s
    head, tail = s[:-3], s[-3:]
    pairs = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join([head, *pairs, tail])


def rs(paise: int) -> str:
    """An amount as a document writes it: 'Rs 1,20,000.00'."""
    return "Rs " + paise_text(paise, grouping=True)
