"""The pieces of a report page: tables of figures, headline figures, notes (Jinja2 templates).

A table is made from a DataFrame read by pipeline.read.select: every figure cell says
which column of which model it is (data-col, and the table's data-selection) and which
row (data-key), so a reader, or a test, can trace it back. Money is integer paise to
the last moment and written with Indian digit groups (1,20,000.00); dates are written
day first (05-10-2026). Text from the registers is escaped by the templates: it shows
as text, never as markup.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from pipeline.core.money import paise_text
from pipeline.core.months import day_text
from pipeline.core.script import marked
from pipeline.read.select import key_text

MAX_ROWS = 500      # rows shown in one table of a page; the CSV exports and the workbooks hold them all

_ENV = Environment(loader=FileSystemLoader(str(Path(__file__).resolve().parent / "templates" / "html")),
                   autoescape=select_autoescape(default=True, default_for_string=True),
                   trim_blocks=False, lstrip_blocks=False)
_ENV.filters["mark"] = lambda text: Markup(marked(text))     # Kannada as lang="kn", ids and dates whole (core/script.py)


class Html(str):
    """A piece of HTML that a notebook displays as HTML (it is also a plain str)."""

    def _repr_html_(self) -> str:
        return str(self)


def _render(template: str, **values) -> Html:
    return Html(_ENV.get_template(template).render(**values))


def piece(macro: str, /, **values) -> Html:
    """One of the small pieces of templates/html/pieces.html.j2 (a macro), filled in."""
    return Html(getattr(_ENV.get_template("pieces.html.j2").module, macro)(**values))


def piece_template(template: str, /, **values) -> Html:
    """A template of templates/html filled in (the month at a glance's figures, say)."""
    return _render(template, **values)


def note(text: str, kind: str = "note") -> Html:
    """A short paragraph in a box: kind 'note', 'empty' or 'warn'."""
    return piece("note", text=text, kind=kind)


def signature(*lines: str) -> Html:
    """Lines to sign on a printed page (shown only when printed: the page's print stylesheet)."""
    return piece("signature", lines=lines)


def heading(text: str, level: int = 1) -> Html:
    return piece("heading", text=text, level=level)


def rupees(paise) -> str:
    """Integer paise as rupees, Indian digit groups, two decimals: 12000000 -> '1,20,000.00'.

    Blank for a missing value. Money is never carried as a float: a float is accepted
    only if it is a whole number of paise (pandas may hand one back), else TypeError.
    """
    if is_blank(paise):
        return ""
    if isinstance(paise, float) and not paise.is_integer():
        raise TypeError(f"money must be whole paise, got {paise!r}")
    return paise_text(paise, grouping=True)


def is_blank(v) -> bool:
    if v is None:
        return True
    try:
        import pandas as pd
        if v is pd.NA or v is pd.NaT:
            return True
    except ImportError:  # pragma: no cover
        pass
    try:
        return bool(v != v)  # NaN
    except (TypeError, ValueError):
        return False


def cell_text(v, money: bool = False, percent: bool = False) -> tuple[str, str]:
    """(text, css class) for one value."""
    if is_blank(v):
        return "", "blank"
    if money:
        return rupees(v), "num money"
    if percent:
        return f"{float(v):.1f}%", "num"
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return ("yes" if v else "no"), "text"
    if isinstance(v, int) or type(v).__name__.startswith(("int", "uint", "Int")):
        return f"{int(v):,}", "num"
    if isinstance(v, float):
        if math.isfinite(v) and v.is_integer():
            return f"{int(v):,}", "num"
        return f"{v:,.1f}", "num"
    if type(v).__name__ == "Timestamp" or isinstance(v, (dt.date, dt.datetime)):
        return day_text(v), "date"
    return str(v), "text"


def _numeric(series) -> bool:
    import pandas as pd
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _key(rec: Mapping, key: Sequence[str]) -> dict:
    out = {}
    for k in key:
        v = rec.get(k)
        if is_blank(v):
            out[k] = None
        elif type(v).__name__ == "Timestamp" or isinstance(v, dt.date):
            out[k] = key_text(v)
        elif isinstance(v, bool) or type(v).__name__ == "bool_":
            out[k] = bool(v)
        elif type(v).__name__.startswith(("int", "Int", "uint")):
            out[k] = int(v)
        else:
            out[k] = str(v)
    return out


def _totals(df, table_id: str | None, by) -> dict:
    """The totals read for the frame by pipeline.read.select.totals (of every row, or of one value
    of the column it was read `by`): a total shown is added up by DuckDB, never here. Refused for
    a frame that is not the selection they add up (rows dropped from it in pandas since)."""
    read = df.attrs.get("totals")
    if read is None:
        raise ValueError(f"table {table_id}: a total is shown only as read by select.totals(), and none was read")
    if df.attrs.get("totals_rows") != int(df.attrs.get("rows", len(df))):
        raise ValueError(f"table {table_id}: its totals add up {df.attrs.get('totals_rows')} rows of the selection, "
                         f"and the frame holds {len(df)}: read them again for the rows shown")
    return read[None if by is None else key_text(by)]


def table(df, *, money: Iterable[str] = (), percent: Iterable[str] = (), labels: Mapping | None = None,
          value_labels: Mapping[str, Mapping] | None = None, hide: Iterable[str] = (),
          table_id: str | None = None, empty: str = "Nothing to show.", total: str | None = None,
          row_class: str | None = None, max_rows: int = MAX_ROWS, essential: Iterable[str] | None = None) -> Html:
    """A DataFrame as an HTML table.

    money: integer-paise columns, written as rupees. percent: shares, written 12.5%.
    labels: column -> heading. value_labels: column -> {value: words} (the value stays in data-value).
    hide: columns read (to name rows) but not shown. total: a last row with that label holding the
    totals of every row (shown or not) of the numeric columns that add up, as DuckDB added them
    up (pipeline.read.select.totals; a frame without them is refused). row_class: a column whose
    value becomes the row's CSS class. Only the first max_rows rows are shown, with a line saying
    how many more there are (of the whole selection: a frame of select_first() holds only the
    first rows, and says how many there are in attrs["rows"]). essential: for a table too wide
    for a laptop's screen or an A4 page, the columns shown (and printed) at first; the others
    are a click away on screen (a "show every column" box; _columns).
    """
    if df is None or len(df) == 0:
        return note(empty, "empty")
    money, percent = set(money), set(percent)
    count = int(df.attrs.get("rows", len(df)))
    if len(df) < min(count, max_rows):
        raise ValueError(f"table {table_id}: {len(df):,} rows read of {count:,}, and {max_rows:,} are shown")
    cols = [c for c in df.columns if c not in set(hide)]
    columns = _columns(df, cols, money, percent, dict(labels or {}), essential, table_id)
    selection = df.attrs.get("selection")
    key = selection["key"] if selection else None
    shown = df.head(max_rows) if len(df) > max_rows else df
    rows = [{"cells": _cells(rec, columns, money, percent, dict(value_labels or {})),
             "cls": _row_class(rec, row_class), "key": None if key is None else _key(rec, key)}
            for rec in shown.to_dict("records")]
    foot = _foot(columns, total, _totals(df, table_id, None), money) if total is not None else None
    return _table_html(table_id, selection, columns, rows, total=foot, hidden=count > max_rows,
                       shown=f"{max_rows:,}", count=f"{count:,}", some=sum(1 for c in columns if c["extra"]))


def _json(value) -> str:
    """A value as JSON inside an attribute, as the templates write it (`tojson | forceescape`):
    Jinja's own htmlsafe_json_dumps with the environment's JSON settings, then escaped."""
    return str(escape(str(htmlsafe_json_dumps(value, **_ENV.policies["json.dumps_kwargs"]))))


def _esc(value) -> str:
    """escape() of a value a table writes many times over (a column's name, a cell's class), a
    plain str's remembered (never a Markup's, which is equal to the plain str of its text)."""
    return _esc_text(value) if type(value) is str else str(escape(value))


@functools.lru_cache(maxsize=4096)
def _esc_text(value: str) -> str:
    return str(escape(value))


def _extra(piece: Mapping) -> str:
    return " pound-extra" if piece.get("extra") else ""


def _table_html(table_id: str | None, selection: dict | None, columns: list[dict], rows: list[dict], *,
                total: list[dict] | None = None, hidden: bool = False, shown: str = "", count: str = "",
                some: int = 0) -> Html:
    """A table of figures as HTML. Each figure cell names its column (data-col) and its row (data-key
    on the row, or on the cell in a pivot), and the table names the selection it was read from
    (data-selection), so that any figure can be traced to its model and checked against it. A
    table with essential columns (`some`: how many others) shows those first; the box before it
    shows every column (no script: the page's stylesheet hides the extra columns while the box is
    unticked). Text is escaped (marked, for words shown: core/script.py).
    Written out here rather than by a template: a district's review shows some 10,000 cells, and a
    template took a tenth of the review's CPU time to fill them in."""
    out = [f'<div class="pound-scroll{" pound-some" if some else ""}">']
    if some:
        out.append(f'<input type="checkbox" class="pound-all" id="{escape(table_id)}-all"><label class="pound-all" '
                   f'for="{escape(table_id)}-all">show every column ({some} more)</label>')
    out.append('\n<table class="pound-table"')
    if table_id:
        out.append(f' id="{escape(table_id)}"')
    if selection:
        out.append(f' data-selection="{_json(selection)}"')
    out.append(">\n<thead><tr>")
    out.extend(f'<th scope="col" class="{_esc(c["cls"])}{_extra(c)}" data-col="{_esc(c["name"])}">'
               f'{marked(c["head"])}</th>' for c in columns)
    out.append("</tr></thead>\n<tbody>")
    for r in rows:
        out.append("\n<tr")
        if r["cls"]:
            out.append(f' class="{_esc(r["cls"])}"')
        if r["key"] is not None:
            out.append(f' data-key="{_json(r["key"])}"')
        out.append(">")
        for cell in r["cells"]:
            out.append(f'<td class="{_esc(cell["cls"])}{_extra(cell)}" data-col="{_esc(cell["col"])}"')
            if cell["key"] is not None:
                out.append(f' data-key="{_json(cell["key"])}"')
            if cell["value"] is not None:
                out.append(f' data-value="{_esc(cell["value"])}"')
            out.append(f'>{marked(cell["text"])}</td>')
        out.append("</tr>")
    out.append("\n</tbody>")
    if total:
        out.append('\n<tfoot><tr class="total" data-key="{}">')
        out.extend(f'<td class="{_esc(cell["cls"])}{_extra(cell)}"'
                   + (f' data-col="{_esc(cell["col"])}"' if cell["col"] else "") + f'>{escape(cell["text"])}</td>'
                   for cell in total)
        out.append("</tr></tfoot>")
    out.append("\n</table></div>")
    if hidden:
        out.append(f'\n<p class="pound-note">The first {escape(shown)} of {escape(count)} rows are shown'
                   + (" (the total is of all of them)" if total else "")
                   + (f"; they are read from {escape(selection['model'])}, which pound export writes whole"
                      if selection else "") + ".</p>")
    return Html("".join(out))


def _columns(df, cols: list[str], money: set, percent: set, labels: dict, essential, table_id) -> list[dict]:
    """Each column shown: its name, heading (money headed "(Rs)"), alignment class, and whether
    it is one of the extra columns of a table with `essential` ones (hidden until asked for)."""
    if essential is not None:
        unknown = set(essential) - set(cols)
        if unknown or not table_id:
            raise ValueError(f"table {table_id}: essential columns {sorted(unknown)} are not shown, or the table has no id")
    columns = []
    for c in cols:
        head = labels.get(c, c.replace("_", " ")) + (" (Rs)" if c in money else "")
        cls = "num" if c in money or c in percent or _numeric(df[c]) else "text"
        columns.append({"name": c, "head": head, "cls": cls, "extra": essential is not None and c not in essential})
    return columns


def _cells(rec: Mapping, columns: list[dict], money: set, percent: set, value_labels: dict) -> list[dict]:
    """The cells of one row; a value with words in value_labels shows the words, and keeps the value."""
    cells = []
    for column in columns:
        c = column["name"]
        text, cls = cell_text(rec[c], c in money, c in percent)
        value = None
        if c in value_labels and not is_blank(rec[c]):
            value, text = str(rec[c]), str(value_labels[c].get(rec[c], rec[c]))
        cells.append({"col": c, "text": text, "cls": cls, "key": None, "value": value, "extra": column["extra"]})
    return cells


def _row_class(rec: Mapping, row_class: str | None) -> str | None:
    if row_class and not is_blank(rec.get(row_class)):
        return str(rec[row_class])
    return None


def _foot(columns: list[dict], label: str, sums: dict, money: set) -> list[dict]:
    """The total row: its label in the first column, then the columns select.totals() added up
    (and only those), blank elsewhere."""
    foot = []
    for i, column in enumerate(columns):
        c = column["name"]
        if i == 0:
            cell = {"col": None, "text": label, "cls": "text"}
        elif c in sums:
            cell = {"col": c, "text": rupees(sums[c]) if c in money else f"{sums[c]:,}",
                    "cls": "num money" if c in money else "num"}
        else:
            cell = {"col": None, "text": "", "cls": "blank"}
        foot.append({**cell, "extra": column["extra"]})
    return foot


def pivot(df, index: str, column: str, value: str, *, money: bool = False, table_id: str | None = None,
          empty: str = "Nothing to show.", index_label: str | None = None, total_label: str | None = None) -> Html:
    """A long selection (index, column, value) shown wide: one row per index value, one column per
    column value. Each cell names its own row of the selection (data-key). total_label: a last
    column with each row's total, as DuckDB added it up (select.totals(con, frame, by=index))."""
    if df is None or len(df) == 0:
        return note(empty, "empty")
    selection = df.attrs.get("selection")
    heads = sorted({str(v) for v in df[column] if not is_blank(v)})
    index_values = list(dict.fromkeys(df[index]))
    lookup = {(r[index], str(r[column])): r[value] for r in df.to_dict("records")}
    columns = [{"name": index, "head": index_label or index.replace("_", " "), "cls": "text"}]
    columns += [{"name": h, "head": h, "cls": "num"} for h in heads]
    if total_label:
        columns.append({"name": "all", "head": total_label, "cls": "num"})
    rows = []
    for iv in index_values:
        cells = [{"col": index, "text": cell_text(iv)[0], "cls": "text", "key": None, "value": None}]
        for h in heads:
            v = lookup.get((iv, h), 0)
            text, cls = cell_text(v, money)
            cells.append({"col": value, "text": text, "cls": cls, "value": None,
                          "key": _key({index: iv, column: h}, [index, column])})
        if total_label:
            row_total = _totals(df, table_id, iv)[value]
            cells.append({"col": value, "text": rupees(row_total) if money else f"{row_total:,}",
                          "cls": "num money" if money else "num",
                          "value": None, "key": _key({index: iv}, [index])})
        rows.append({"cells": cells, "cls": None, "key": None})
    return _table_html(table_id, selection, columns, rows)


TRANSPOSED_SHOWN = 6    # a transposed table of more values than this shows their total first, them a click away


def transposed(df, measures: Sequence[tuple[str, str]], by: str, *, money: bool = True, table_id: str | None = None,
               total_label: str | None = None, empty: str = "Nothing to show.") -> Html:
    """One row per measure (column of df, with its label), one column per value of `by`, and with
    total_label a last column with each measure's total as DuckDB added it up (select.totals).
    With a total and more than TRANSPOSED_SHOWN values of `by` (the pounds of a district), the
    measure and total columns are shown first and the others are a click away (see table())."""
    if df is None or len(df) == 0:
        return note(empty, "empty")
    selection = df.attrs.get("selection")
    records = df.to_dict("records")
    extra = bool(total_label and table_id and len(records) > TRANSPOSED_SHOWN)
    columns = [{"name": "measure", "head": "measure", "cls": "text"}]
    columns += [{"name": str(r[by]), "head": str(r[by]), "cls": "num", "extra": extra} for r in records]
    if total_label:
        columns.append({"name": "total", "head": total_label, "cls": "num"})
    rows = []
    for m, label in measures:
        cells = [{"col": "measure", "text": label, "cls": "text", "key": None, "value": m}]
        for r in records:
            text, cls = cell_text(r[m], money)
            cells.append({"col": m, "text": text, "cls": cls, "value": None, "key": _key(r, [by]), "extra": extra})
        if total_label:
            s = _totals(df, table_id, None)[m]
            cells.append({"col": m, "text": rupees(s) if money else f"{s:,}", "cls": "num money" if money else "num",
                          "value": None, "key": {}})
        rows.append({"cells": cells, "cls": None, "key": None})
    return _table_html(table_id, selection, columns, rows, some=len(records) if extra else 0)


def parameters_table(rows: Sequence[tuple[str, str]], warnings: Sequence[str] = ()) -> Html:
    return _render("parameters.html.j2", rows=rows, warnings=warnings)


def figure_or_note(fig, text: str | None = None):
    """The figure; when there was nothing to draw (charts return None then), the note, or nothing."""
    if fig is not None:
        return fig
    return note(text, "empty") if text else Html("")
