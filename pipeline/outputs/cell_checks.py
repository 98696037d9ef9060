"""The checks a keeper's or a ledger's workbook puts on its date and amount cells, written as
spreadsheet formulas that take what the loader's parser takes (pipeline/load/values.py):
day-first dates (04-11-2026, 04/11/2026) or year first, and amounts grouped by thousands or the
Indian way (1,20,000), at most two decimals. day_number reads a date cell as its check takes it,
for the sheet "what is due".
"""

from __future__ import annotations

import re

# Excel's day numbers: 1 January 1966 (the Act's year) and 31 December 2099 bound a date cell.
FIRST_DAY, LAST_DAY = 24108, 73050


# A check is a formula of the cell it checks, written with X for that cell. It is held in a name
# of the sheet (date_ok, amount_ok) whose reference is relative, so each cell of a column checks
# itself: a data validation's own formula may hold at most 255 characters, these need more.
# tests/outputs/test_template_checks.py holds them to the loader's parser in LibreOffice.

# A real date (a whole day number within the bounds), or text the loader reads as a date:
# YYYY-M-D, or D-M-YYYY or D/M/YYYY (one or two digits, one separator throughout). Text is turned
# into YYYY-M-D and read as a date by the spreadsheet, which refuses a day that is not in the
# calendar (31-11-2026) by an error; an error is a refusal.
_SEP_AT = "(3-ISERR(-MID(X,2,1)))"      # where the first separator of D-M-YYYY or DD-M-YYYY is
_DATE_TEXT = (
    "AND(ISERR(FIND(\".\",X)),ABS(IF(FIND(\"-\",X&\"-\")=5,X,FIND(MID(X,{p},1)&MID(X,LEN(X)-4,1),\"--,//\")*0"
    "+(RIGHT(X,4)&\"-\"&MID(X,{p}+1,LEN(X)-{p}-5)&\"-\"&LEFT(X,{p}-1)))-{mid})<={half})")


def _digits(text: str) -> str:
    """A formula: `text` is nothing but ASCII digits (or empty): 1 put before it, it reads back the same."""
    return f'("1"&{text})=(--("1"&{text}))&""'


def _grouped(n: str, length: str, places: tuple[int, ...]) -> str:
    """A formula: the digits `n` (of `length`) with a comma put in before each of the last
    `places` digits (the rightmost first, so the places to its left do not move)."""
    out = n
    for k in places:
        out = f'REPLACE({out},MAX(1,{length}-{k - 1}),0,REPT(",",({length}>{k})*1))'
    return out


# The parts of an amount's text the check reads, each a name of the sheet (relative, as the checks
# are), so that the check holds each once: Excel keeps at most 8,192 characters in a formula.
AMOUNT_PARTS = {
    "amount_text": 'MID(TRIM(X),1+(LEFT(TRIM(X),1)="-"),99)',          # the text, trimmed, without its sign
    "amount_whole": 'LEFT(amount_text,FIND(".",amount_text&".")-1)',   # before the decimal point
    "amount_digits": 'SUBSTITUTE(amount_whole,",","")',                 # those digits without commas
}


def amount_check(minimum: int) -> str:
    """A number of rupees with at most two decimals, at least `minimum`, or text the loader reads as
    one: digits plain (1200), grouped by thousands (1,200,000) or the Indian way (12,00,000), with
    at most two decimals (and a sign, which the loader's minimum refuses but on -0). It reads the
    names of AMOUNT_PARTS."""
    t, whole, n = "amount_text", "amount_whole", "amount_digits"
    decimals = f"MID({t},LEN({whole})+2,9)"
    length = f"LEN({n})"
    western = _grouped(n, length, (3, 6, 9, 12))
    indian = _grouped(n, length, (3, 5, 7, 9, 11, 13))
    text = (f"AND({length}>=1,{length}<=15,{_digits(f'LEFT({n},8)')},{_digits(f'MID({n},9,9)')},"
            f"OR(LEN({t})=LEN({whole}),AND(LEN({decimals})>=1,LEN({decimals})<=2,ISERR(FIND(\".\",{decimals})),"
            f"{_digits(decimals)})),OR({whole}={n},{whole}={western},{whole}={indian}),"
            f'OR(LEFT(TRIM(X),1)<>"-",--SUBSTITUTE({t},",","")=0))')
    return f"IF(ISNUMBER(X),AND(X>={minimum},ROUND(X,2)=X,X<1E+15),{text})"


def date_check() -> str:
    mid, half = (FIRST_DAY + LAST_DAY) / 2, (LAST_DAY - FIRST_DAY) / 2
    text = _DATE_TEXT.format(p=_SEP_AT, mid=f"{mid:g}", half=f"{half:g}")
    return f"IF(ISNUMBER(X),AND(INT(X)=X,X>={FIRST_DAY},X<={LAST_DAY}),{for_cell(text, 'TRIM(X)')})"


def for_cell(check: str, ref: str) -> str:
    """A check written for the cell `ref` (X is never part of a function's name here)."""
    return re.sub(r"\bX\b", ref, check)


def day_number(x: str) -> str:
    """A formula: the day the cell `x` holds, a real date or day-first text (as its check takes it)."""
    t = "TRIM(" + x + ")"
    p = f"(3-ISERR(-MID({t},2,1)))"
    text = (f'--IF(FIND("-",{t}&"-")=5,{t},RIGHT({t},4)&"-"&MID({t},{p}+1,LEN({t})-{p}-5)&"-"&LEFT({t},{p}-1))')
    return f"IF(ISNUMBER({x}),{x},{text})"
