"""Reading a rendered page's figures back and checking each against its model.

Every table and headline figure of a report names the selection it was read from
(data-selection: the model, its conditions, the key columns and, for each column, the
model column and how it is added up); every figure cell names its column (data-col) and
its row (data-key, on the row or the cell). `page_figures` collects them from the HTML;
`expected` asks the model, independently of the report code, what that figure must be;
`parse` reads the figure's text as a value (paise, a count, a share, a date, yes/no).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

from bs4 import BeautifulSoup

AGG_SQL = {"": "{c}", "sum": "sum({c})", "count": "count(*)", "count_if": "count(*) FILTER (WHERE {c} = ?)",
           "sum_if": "sum({c}) FILTER (WHERE {w} = ?)", "median": "median({c})", "min": "min({c})", "max": "max({c})",
           "count_distinct": "count(DISTINCT {c})", "share": "100.0 * sum({c}) / nullif(sum({w}), 0)",
           "list": "string_agg(DISTINCT {c}, ', ' ORDER BY {c})", "q1": "quantile_cont({c}, 0.25)",
           "q3": "quantile_cont({c}, 0.75)"}


@dataclass
class Figure:
    selection: dict
    key: dict
    col: str
    text: str
    kind: str          # money, int, percent, date, text
    value_attr: str | None
    where: str          # a description for messages


def _kind(classes: list[str], text: str, money_flag: bool) -> str:
    if money_flag or "money" in classes:
        return "money"
    if "date" in classes:
        return "date"
    if text.endswith("%"):
        return "percent"
    if "num" in classes:
        return "num"
    return "text"


def page_figures(html: str) -> list[Figure]:
    soup = BeautifulSoup(html, "html.parser")
    out: list[Figure] = []
    for el in soup.find_all(attrs={"data-selection": True}):
        sel = json.loads(el["data-selection"])
        if el.name == "div":            # a headline figure
            text = el.find(class_="v").get_text(strip=True)
            out.append(Figure(sel, {}, el["data-col"], text, _kind([], text, el.get("data-money") == "1"), None,
                              f"figure {el.find(class_='l').get_text(strip=True)!r}"))
            continue
        name = el.get("id", "?")
        for tr in el.find_all("tr"):
            row_key = tr.get("data-key")
            for td in tr.find_all("td"):
                col = td.get("data-col")
                key = td.get("data-key") or row_key
                if key is None or col not in sel["columns"]:
                    continue
                key = json.loads(key)
                spec = sel["columns"][col]
                if not spec["agg"] and col in key:
                    continue            # the row's own name
                text = " ".join(td.get_text().split())     # spans keep ids and dates whole: no space added
                out.append(Figure(sel, key, col, text, _kind(td.get("class", []), text, False), td.get("data-value"),
                                  f"table {name}, row {key}, column {col}"))
    return out


def _cond(c: dict, params: list) -> str:
    if "any" in c:
        return "(" + " OR ".join(_cond(x, params) for x in c["any"]) + ")"
    if "all" in c:
        return "(" + " AND ".join(_cond(x, params) for x in c["all"]) + ")"
    col, op, v = c["column"], c["op"], c["value"]
    if op == "is_null":
        return f"{col} IS NULL"
    if op == "not_null":
        return f"{col} IS NOT NULL"
    if op == "in":
        params.extend(v)
        return f"{col} IN ({', '.join('?' for _ in v)})"
    params.append(v)
    return f"{col} {op} ?"


def expected(con, f: Figure):
    """What the model says the figure is: the column (or its aggregate) over the rows of the
    selection's conditions that the figure's key names."""
    sel = f.selection
    spec = sel["columns"][f.col]
    grouped = any(s["agg"] for s in sel["columns"].values())
    if spec["agg"]:
        agg = spec["agg"]
    elif set(sel["key"]) - set(f.key):
        agg = "sum"                     # a total over several rows
    elif grouped:
        agg = "min"                     # a column the rows are grouped by: the one value of the group
    else:
        agg = ""
    params: list = []
    expr = AGG_SQL[agg].format(c=spec["column"], w=spec.get("when") or "")
    if agg in ("count_if", "sum_if"):
        params.append(spec["value"])
    conds = [_cond(c, params) for c in sel["where"]]
    for k, v in f.key.items():
        column = sel["columns"].get(k, {}).get("column") or k
        if v is None:
            conds.append(f"{column} IS NULL")
        else:
            conds.append(f"CAST({column} AS VARCHAR) = ?")
            params.append(str(v) if not isinstance(v, bool) else str(v).lower())
    sql = f"SELECT {expr} FROM {sel['model']}" + (" WHERE " + " AND ".join(conds) if conds else "")
    rows = con.execute(sql, params).fetchall()
    assert len(rows) == 1, f"{f.where}: the key names {len(rows)} rows of {sel['model']}"
    return rows[0][0]


def parse(f: Figure):
    """The figure's text as a value of its kind (paise for money)."""
    t = f.text
    if f.value_attr is not None:
        return f.value_attr
    if t == "":
        return None
    if f.kind == "money":
        neg = t.startswith("-")
        whole, frac = t.lstrip("-").replace(",", "").split(".")
        v = int(whole) * 100 + int(frac)
        return -v if neg else v
    if f.kind == "percent":
        return float(t.rstrip("%"))
    if f.kind == "date":
        return dt.datetime.strptime(t, "%d-%m-%Y").date()
    if f.kind == "num":
        n = t.replace(",", "")
        return float(n) if "." in n else int(n)
    if t in ("yes", "no"):
        return t == "yes"
    return t


def same(f: Figure, page_value, model_value) -> bool:
    if model_value is None:
        return page_value in (None, 0, "")
    if f.value_attr is not None:
        return str(model_value) == page_value or str(model_value).lower() == str(page_value).lower()
    if f.kind == "percent":
        return abs(float(model_value) - page_value) < 0.051
    if isinstance(model_value, float) and not isinstance(page_value, str):
        return abs(model_value - page_value) < 0.051
    if isinstance(model_value, dt.datetime):
        model_value = model_value.date()
    if isinstance(model_value, bool) or isinstance(page_value, bool):
        return bool(model_value) == page_value
    if isinstance(model_value, int) and isinstance(page_value, (int, float)):
        return model_value == page_value
    return re.sub(r"\s+", " ", str(model_value)).strip() == str(page_value)


def check_page(con, html: str) -> tuple[int, list[str]]:
    """(figures checked, every figure that differs from its model, as a sentence)."""
    figures = page_figures(html)
    bad = []
    for f in figures:
        want = expected(con, f)
        got = parse(f)
        if not same(f, got, want):
            bad.append(f"{f.where}: the page shows {f.text!r}, the model {f.selection['model']}.{f.col} says {want!r}")
    return len(figures), bad
