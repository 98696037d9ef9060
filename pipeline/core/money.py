"""Paise as rupee text, the one way Python code writes an amount (the SQL macro rupees() does the same in DuckDB)."""

from __future__ import annotations


def paise_text(paise: int, grouping: bool = False) -> str:
    """Integer paise as rupees with exactly two decimals, by integer arithmetic only:
    -5000 -> '-50.00'; with grouping, 2200000 -> '22,000.00'."""
    p = int(paise)
    sign = "-" if p < 0 else ""
    whole, frac = divmod(abs(p), 100)
    return f"{sign}{whole:,}.{frac:02d}" if grouping else f"{sign}{whole}.{frac:02d}"
