"""Reading the finished models: a selection is a model, its columns or sums, a filter and an order.

Everything a report, a workbook sheet or a document shows is read through `select()`:
one finished table (a model of pipeline/sql/), the columns wanted as they are or summed
over the rows in scope, conditions on its own columns, and an order. A selection cannot
join tables or compute a date or an amount: what a figure means is defined once, in its
model; here it is only filtered, added up over the scope and ordered.

The DataFrame a selection returns carries the selection itself (`frame.attrs["selection"]`),
so a page can write, beside each figure, the model, column and row it came from, and a test
can read every figure back from the page and check it against its model.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace

_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
AGGREGATES = {"": "{c}", "sum": "sum({c})", "count": "count(*)", "count_if": "count(*) FILTER (WHERE {c} = {v})",
              "sum_if": "sum({c}) FILTER (WHERE {w} = {v})", "median": "median({c})", "min": "min({c})",
              "max": "max({c})", "count_distinct": "count(DISTINCT {c})",
              "share": "100.0 * sum({c}) / nullif(sum({w}), 0)", "list": "string_agg(DISTINCT {c}, ', ' ORDER BY {c})",
              "q1": "quantile_cont({c}, 0.25)", "q3": "quantile_cont({c}, 0.75)"}
OPS = ("=", "<>", "<", "<=", ">", ">=", "in", "not_in", "is_null", "not_null")


class Kept(dict):
    """A dict a frame's attrs carry (a selection written out, its totals), made once and never
    changed. pandas deep-copies a frame's attrs into every column or frame it hands out, thousands
    of times for one page; a Kept is its own copy, as a frozen Selection is."""

    def __deepcopy__(self, memo) -> Kept:
        return self


def _name(text: str) -> str:
    if not _NAME.match(text):
        raise ValueError(f"not a column name: {text!r}")
    return text


@dataclass(frozen=True)
class Measure:
    """One output column: a model column as it is (agg ''), or an aggregate of it over the rows."""

    name: str
    agg: str = ""
    column: str | None = None
    when: str | None = None         # sum_if: the column compared with `value`
    value: object = None            # count_if / sum_if

    def sql(self, params: list) -> str:
        if self.agg not in AGGREGATES:
            raise ValueError(f"unknown aggregate {self.agg!r}")
        v = ""
        if self.agg in ("count_if", "sum_if"):
            params.append(self.value)
            v = "?"
        expr = AGGREGATES[self.agg].format(c=_name(self.column) if self.column else "",
                                           w=_name(self.when) if self.when else "", v=v)
        if self.agg in ("sum", "sum_if", "count", "count_if", "count_distinct"):
            expr = f"CAST(coalesce({expr}, 0) AS BIGINT)"
        return f"{expr} AS {_name(self.name)}"


def col(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "", column)


def total(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "sum", column)


def total_if(column: str, when: str, value, as_: str) -> Measure:
    return Measure(as_, "sum_if", column, when, value)


def count(as_: str = "rows") -> Measure:
    return Measure(as_, "count")


def count_if(column: str, value, as_: str) -> Measure:
    return Measure(as_, "count_if", column, None, value)


def share(column: str, of: str, as_: str) -> Measure:
    """sum(column) as a percentage of sum(of) over the rows in scope."""
    return Measure(as_, "share", column, of)


def median(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "median", column)


def quartile(column: str, which: int, as_: str) -> Measure:
    """The first (which=1) or third (which=3) quartile of a column over the rows, interpolated
    between the two nearest values as median() is."""
    return Measure(as_, {1: "q1", 3: "q3"}[which], column)


def largest(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "max", column)


def smallest(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "min", column)


def distinct(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "count_distinct", column)


def listing(column: str, as_: str | None = None) -> Measure:
    return Measure(as_ or column, "list", column)


@dataclass(frozen=True)
class Cond:
    """A condition on a column of the model: column op value."""

    column: str
    op: str
    value: object = None

    def sql(self, params: list) -> str:
        c = _name(self.column)
        if self.op not in OPS:
            raise ValueError(f"unknown operator {self.op!r}")
        if self.op == "is_null":
            return f"{c} IS NULL"
        if self.op == "not_null":
            return f"{c} IS NOT NULL"
        if self.op in ("in", "not_in"):
            values = list(self.value)
            if not values:
                return "false" if self.op == "in" else "true"
            params.extend(values)
            return f"{c} {'IN' if self.op == 'in' else 'NOT IN'} ({', '.join('?' for _ in values)})"
        params.append(self.value)
        return f"{c} {self.op} ?"

    def as_dict(self) -> dict:
        v = self.value
        if isinstance(v, dt.date):
            v = v.isoformat()
        elif isinstance(v, (list, tuple, set, frozenset)):
            v = sorted(str(x) for x in v)
        return {"column": self.column, "op": self.op, "value": v}


@dataclass(frozen=True)
class Either:
    """Any of several conditions (all others are joined with AND)."""

    conds: tuple[Cond, ...]

    def sql(self, params: list) -> str:
        return "(" + " OR ".join(f"({c.sql(params)})" for c in self.conds) + ")"

    def as_dict(self) -> dict:
        return {"any": [c.as_dict() for c in self.conds]}


def either(*conds: Cond | list[Cond]) -> Either:
    """Either of the conditions; a list among them stands for its conditions all holding."""
    parts: list = []
    for c in conds:
        parts.append(All(tuple(c)) if isinstance(c, list) else c)
    return Either(tuple(parts))


@dataclass(frozen=True)
class All:
    """Every one of several conditions (for use inside `either`)."""

    conds: tuple[Cond, ...]

    def sql(self, params: list) -> str:
        return "(" + " AND ".join(c.sql(params) for c in self.conds) + ")"

    def as_dict(self) -> dict:
        return {"all": [c.as_dict() for c in self.conds]}


def between(column: str, first, last) -> list[Cond]:
    return [Cond(column, ">=", first), Cond(column, "<=", last)]


@dataclass(frozen=True)
class Selection:
    """What to read from one model."""

    model: str
    measures: tuple[Measure, ...]
    where: tuple[Cond | Either, ...] = ()
    order: tuple[str, ...] = ()
    key: tuple[str, ...] = ()          # the columns that name a row of the result
    limit: int | None = None
    having: tuple[Cond, ...] = field(default=())

    @property
    def grouped(self) -> bool:
        return any(m.agg for m in self.measures)

    def sql(self) -> tuple[str, list]:
        params: list = []
        cols = ", ".join(m.sql(params) for m in self.measures)
        sql = f"SELECT {cols} FROM {_name(self.model)}"
        where_params: list = []
        if self.where:
            sql += " WHERE " + " AND ".join(c.sql(where_params) for c in self.where)
        params += where_params
        if self.grouped:
            plain = [m.column for m in self.measures if not m.agg]
            if plain:
                sql += " GROUP BY " + ", ".join(_name(c) for c in plain)
        if self.having:
            sql += " HAVING " + " AND ".join(c.sql(params) for c in self.having)
        if self.order:
            parts = []
            for o in self.order:
                name, _, direction = o.partition(" ")
                if direction not in ("", "DESC", "ASC"):
                    raise ValueError(f"bad order {o!r}")
                parts.append(f"{_name(name)} {direction}".strip())
            sql += " ORDER BY " + ", ".join(parts)
        if self.limit is not None:
            sql += f" LIMIT {int(self.limit)}"
        return sql, params

    def __deepcopy__(self, memo) -> Selection:
        return self          # frozen: a frame's attrs["read"] is copied with the frame (Kept)

    def as_dict(self) -> dict:
        """What a page writes beside the table: enough to read each figure again from the model."""
        return {"model": self.model, "where": [c.as_dict() for c in self.where],
                "key": list(self.key or [m.name for m in self.measures if not m.agg]),
                "columns": {m.name: {"agg": m.agg, "column": m.column, "when": m.when,
                                     "value": m.value if not isinstance(m.value, dt.date) else m.value.isoformat()}
                            for m in self.measures}}


def _selection(model, measures, where, order, key, limit, having, scope) -> Selection:
    flat: list[Cond] = []
    for w in [*where, *(scope.where(model) if scope is not None else [])]:
        flat.extend(w if isinstance(w, list) else [w])
    return Selection(model, tuple(measures), tuple(flat), tuple(order), tuple(key), limit, tuple(having))


def select(con, model: str, *measures: Measure, where=(), order=(), key=(), limit=None, having=(), scope=None):
    """Run a selection on a read-only connection: a DataFrame whose attrs hold the selection.

    With a scope (pipeline/read/scope.py), only the model's rows in its district, local
    authority and period (on the model's stated basis) are read."""
    s = _selection(model, measures, where, order, key, limit, having, scope)
    sql, params = s.sql()
    frame = con.execute(sql, params).df()
    frame.attrs["selection"] = Kept(s.as_dict())
    frame.attrs["read"] = s
    return frame


# What a total row or column adds up: a model column as it is, or a sum or a count over the rows
# (not a median, a share, a largest or a listing, which do not add up).
SUMMED = ("", "sum", "count", "count_if", "sum_if")


def key_text(value) -> str:
    """A value naming a row, as one text whichever reader gave it (a date from DuckDB, a pandas
    Timestamp, a number): how totals() files its totals by a column and how a page looks them up."""
    if hasattr(value, "date") and callable(value.date):
        value = value.date()
    return value.isoformat() if isinstance(value, dt.date) else str(value)


def totals(con, frame, by: str | None = None):
    """The frame, with its totals read by DuckDB into frame.attrs["totals"]: every whole-number
    column of the frame's selection that adds up (SUMMED; in a grouped selection its sums and
    counts, not the columns it is grouped by), other than the columns that name a row, summed over
    every row of the selection (the rows a frame of select_first() leaves out too):
    {None: {column: total}}; with `by` (a column of the selection), for each of its values (as
    key_text writes it): {value: {column: total}}. attrs["totals_rows"] says how many rows of the
    selection they add up, so that a page refuses them for a frame cut after they were read.
    What a table's total row, a pivot's total column or a transposed table's total column shows
    (pipeline/reports/html.py): never a sum made in Python."""
    s: Selection = frame.attrs["read"]
    if s.limit is not None and "rows" not in frame.attrs:
        raise ValueError(f"a total of {s.model} cut by a limit would add up rows the page does not say it leaves out; "
                         "read it with select_first()")
    named = set(s.key or [m.name for m in s.measures if not m.agg]) | {by}
    names = [m.name for m in s.measures if m.agg in SUMMED and not (s.grouped and not m.agg)
             and m.name not in named and frame[m.name].dtype.kind in "iu"]
    inner, params = replace(s, order=(), limit=None).sql()
    sums = "".join(f", CAST(coalesce(sum({_name(n)}), 0) AS BIGINT) AS {_name(n)}" for n in names)
    if by is None:
        row = con.execute(f"SELECT count(*){sums} FROM ({inner})", params).fetchone()
        frame.attrs["totals"] = Kept({None: dict(zip(names, row[1:], strict=True))})
        frame.attrs["totals_rows"] = int(row[0])
        return frame
    rows = con.execute(f"SELECT {_name(by)}, count(*){sums} FROM ({inner}) GROUP BY {_name(by)}", params).fetchall()
    frame.attrs["totals"] = Kept({key_text(r[0]): dict(zip(names, r[2:], strict=True)) for r in rows})
    frame.attrs["totals_rows"] = sum(int(r[1]) for r in rows)
    return frame


class Records(list):
    """The rows of select_records, with the selection written out (`selection`, as a frame's
    attrs["selection"] holds it)."""

    selection: Kept


def select_records(con, model: str, *measures: Measure, where=(), order=(), key=(), limit=None, having=(),
                   scope=None) -> Records:
    """The same selection as select(), as one dict per row with the values the database holds
    (int, str, date, None), for writers that need no DataFrame (and so need not import pandas)."""
    s = _selection(model, measures, where, order, key, limit, having, scope)
    cur = con.execute(*s.sql())
    names = [d[0] for d in cur.description]
    rows = Records(dict(zip(names, row, strict=True)) for row in cur.fetchall())
    rows.selection = Kept(s.as_dict())
    return rows


def _named(value) -> bool:
    """Whether a value read back names a group (None, NaN and pandas' NA do not)."""
    try:
        return value is not None and bool(value == value)
    except TypeError:
        return False


def select_first(con, model: str, *measures: Measure, first: int | None, where=(), order=(), key=(), having=(),
                 scope=None):
    """The first `first` rows of a selection, for a page that shows no more of them: the frame
    carries the whole selection (attrs["selection"], as select() writes it) and how many rows it
    has in all (attrs["rows"]), so that the page can say so. The order must name a row fully.
    With first=None, the whole selection (select()).

    A selection grouped by one column is read in two steps: the order of the groups first (the
    column and the measures the order and the condition on the groups name), then every measure
    of the first groups only; the groups are whole, so their figures are those of the whole
    selection, and an aggregate such as a listing is not made for groups no page shows."""
    if first is None:
        return select(con, model, *measures, where=where, order=order, key=key, having=having, scope=scope)
    s = _selection(model, measures, where, order, key, None, having, scope)
    plain = [m for m in s.measures if not m.agg]
    named = {o.partition(" ")[0] for o in s.order} | {c.column for c in s.having}
    head = replace(s, measures=tuple(m for m in s.measures if not m.agg or m.name in named)) \
        if s.grouped and len(plain) == 1 else s
    sql, params = replace(head, order=(), limit=None).sql()
    rows = con.execute(f"SELECT count(*) FROM ({sql})", params).fetchone()[0]
    sql, params = replace(head, limit=first).sql()
    frame = con.execute(sql, params).df()
    if head is not s:
        names = [v for v in frame[plain[0].name] if _named(v)]
        if len(names) == len(frame):
            frame = con.execute(*replace(s, where=(*s.where, Cond(plain[0].column, "in", names))).sql()).df()
        else:           # a group named NULL cannot be asked for by name: read the whole selection
            frame = con.execute(*replace(s, limit=first).sql()).df()
    frame.attrs["selection"] = Kept(s.as_dict())
    frame.attrs["read"] = s
    frame.attrs["rows"] = int(rows)
    return frame


def select_rows(con, model: str, *measures: Measure, where=(), order=(), key=(), scope=None):
    """The same selection, as (column names, a cursor to fetch rows from) for writers that stream
    rows (the workbook): values stay as the database holds them (integer paise, dates)."""
    s = _selection(model, measures, where, order, key, None, (), scope)
    sql, params = s.sql()
    cur = con.execute(sql, params)
    return [d[0] for d in cur.description], cur, s.as_dict()
