"""What makes every chart of the reports readable by everyone, whichever notebook drew it (the
explore notebook's plotly express figures too; charts.OfflineNotebookRenderer hands each figure
here): months in their order on an axis, the sunburst's labels at a contrast of 4.5:1 or more, and
the drawing shown as an image with a text alternative that says what it shows, a caption saying
where its figures stand, and those figures as a table (templates/html/chart.html.j2).
"""

from __future__ import annotations

import itertools
import re

from markupsafe import Markup

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C6D1F", "#000000"]


def blank(v) -> bool:
    """A value drawn as nothing: None, NaN or NA (pandas' missing values)."""
    if v is None:
        return True
    try:
        return bool(v != v)
    except (TypeError, ValueError):
        return True


_MONTH = re.compile(r"^\d{4}-\d{2}$")
# the kinds of trace the reports draw, and the words that name each
KINDS = {"bar": "Bar chart", "scatter": "Line chart", "box": "Box plot", "sunburst": "Sunburst chart"}


def _array(v) -> list:
    """A trace's array as a list, from plotly's base64 form ({dtype, bdata}) too."""
    if v is None:
        return []
    if isinstance(v, dict) and "bdata" in v:
        import base64

        import numpy as np

        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        if "shape" in v:
            a = a.reshape([int(n) for n in str(v["shape"]).split(",")])
        return a.tolist()
    if hasattr(v, "tolist"):
        return v.tolist()
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _first(trace: dict, *keys):
    """The first of a trace's arrays that it has (an array has no truth value: no `or` here)."""
    for k in keys:
        if trace.get(k) is not None:
            return trace[k]
    return None


def _text(v) -> str:
    if blank(v):
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return f"{int(v):,}" if float(v).is_integer() else f"{v:,.2f}"
    return str(v)


def _title(t) -> str:
    if isinstance(t, dict):
        t = t.get("text")
    return re.sub(r"<br\s*/?>", " ", str(t or "")).strip()


def _axis(layout: dict, trace: dict, letter: str) -> dict:
    ref = str(trace.get(f"{letter}axis") or letter)
    return layout.get(f"{letter}axis{ref[1:]}") or {}


def _contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two colours written #RRGGBB."""
    def lum(c):
        rgb = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b_ = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def label_colour(fill: str) -> str:
    """White or black, whichever stands further from `fill` (both pass 4.5:1 on the reports' colours)."""
    return "#FFFFFF" if _contrast(fill, "#FFFFFF") >= _contrast(fill, "#000000") else "#000000"


def readable(fig: dict) -> dict:
    """The figure (a dict) with its month axes in month order, its sunbursts' labels readable and a
    long title in two lines (plotly never wraps one: on a chart 400 px wide it was cut at the edge)."""
    layout = fig.setdefault("layout", {})
    months: dict[str, set] = {}
    title = layout.get("title")
    text = title.get("text") if isinstance(title, dict) else title
    if isinstance(text, str):
        wrapped = _two_lines(text)
        layout["title"] = {**title, "text": wrapped} if isinstance(title, dict) else wrapped
    for trace in fig.get("data", []):
        if trace.get("type") == "sunburst":
            _sunburst_colours(trace)
            continue
        for letter in "xy":
            values = [v for v in _array(trace.get(letter)) if not blank(v)]
            if values and all(isinstance(v, str) and _MONTH.match(v) for v in values):
                name = f"{letter}axis{str(trace.get(f'{letter}axis') or letter)[1:]}"
                axis = layout.setdefault(name, {})
                if not axis.get("categoryarray"):
                    axis["categoryorder"] = "category ascending"
                months.setdefault(name, set()).update(values)
    for name, seen in months.items():
        # level (a slanted "2026-03" prints as "20", "26", "-03"), every n-th month named on a long axis
        axis = layout[name]
        n = len(_array(axis.get("categoryarray")) or seen)
        if "tickangle" not in axis:
            axis.update(tickangle=0, tickmode="linear", tick0=0, dtick=max(1, -(-n // MONTH_TICKS)))
    return fig


MONTH_TICKS = 6       # months named on an axis at most: level, each whole on A4 and at 400 px
TITLE_LINE = 34        # characters of a title's line at 17 px that a chart 400 px wide holds, within its margins


def _two_lines(title: str) -> str:
    """A title longer than a line, broken at the last space that leaves its first line within it."""
    if "<br" in title or len(title) <= TITLE_LINE:
        return title
    cut = title.rfind(" ", 0, TITLE_LINE + 1)
    return title if cut <= 0 else title[:cut] + "<br>" + title[cut + 1:]


def _sunburst_colours(trace: dict) -> None:
    """Each piece filled in full (plotly draws the outer ring at 0.7 opacity, which takes white labels
    on #0072B2 to 3.0:1) in its first ring's colour, its label black or white by contrast."""
    ids = [str(i) for i in _array(_first(trace, "ids", "labels"))]
    parents = [str(p) for p in _array(trace.get("parents"))] or [""] * len(ids)
    parent_of = dict(zip(ids, parents, strict=False))

    def top(i):
        while parent_of.get(i):
            i = parent_of[i]
        return i

    tops = list(dict.fromkeys(top(i) for i in ids))
    fills = [COLORS[tops.index(top(i)) % len(COLORS)] for i in ids]
    trace.setdefault("marker", {})["colors"] = fills
    trace["leaf"] = {**(trace.get("leaf") or {}), "opacity": 1}
    trace["insidetextfont"] = {**(trace.get("insidetextfont") or {}), "color": [label_colour(f) for f in fills]}
    trace["outsidetextfont"] = {**(trace.get("outsidetextfont") or {}), "color": "#222222"}


def chart_table(fig: dict) -> tuple[list[str], list[list[str]]]:
    """The figures a chart draws, as (head, rows): one row per category (month, pound, piece),
    one column per series; the first column names the row."""
    layout = fig.get("layout", {})
    traces = [t for t in fig.get("data", []) if t.get("visible", True) is not False]
    if any(t.get("type") == "sunburst" for t in traces):
        head, rows = ["piece"], []
        for t in traces:
            m = re.search(r"(\w+)=%\{value", str(t.get("hovertemplate") or ""))
            head = ["piece", m.group(1) if m else "value"]
            ids = [str(i) for i in _array(_first(t, "ids", "labels"))]
            rows += [[" / ".join(i.split("/")), _text(v)] for i, v in zip(ids, _array(t.get("values")), strict=False)]
        return head, rows
    if any(t.get("type") == "box" for t in traces):
        return _box_table(layout, traces)
    columns: dict[str, dict] = {}
    order: list = []
    cat_title = value_title = ""
    for n, t in enumerate(traces):
        flat = t.get("orientation") == "h"
        cat, val = ("y", "x") if flat else ("x", "y")
        cat_title = cat_title or _title(_axis(layout, t, cat).get("title"))
        value_title = value_title or _title(_axis(layout, t, val).get("title"))
        name = str(t.get("name") or value_title or f"series {n + 1}")
        if str(t.get(f"{cat}axis") or cat) not in ("x", "y"):
            name = f"{name} ({t.get(f'{cat}axis')})"
        custom = _array(t.get("customdata"))
        cells = columns.setdefault(name, {})
        for i, (c, v) in enumerate(zip(_array(t.get(cat)), _array(t.get(val)), strict=False)):
            shown = custom[i] if i < len(custom) else None
            shown = shown[0] if isinstance(shown, list) and shown else shown
            cells[str(c)] = shown if isinstance(shown, str) and shown.startswith("Rs") else _text(v)
            order.append(str(c))
        array = _axis(layout, t, cat).get("categoryarray")
        if array is not None:
            # a bar chart lying along the page draws its first category at the bottom: the table
            # reads from the top, as the chart does
            array = [str(v) for v in _array(array)]
            order = (array[::-1] if flat else array) + order
    cats = list(dict.fromkeys(order))
    if cats and all(_MONTH.match(c) for c in cats):
        cats.sort()
    head = [cat_title or "category"] + list(columns)
    return head, [[_title(c)] + [columns[k].get(c, "") for k in columns] for c in cats]


def _box_table(layout, traces):
    cat_title = _title(layout.get("xaxis", {}).get("title")) or "how the case closed"
    value_title = _title(layout.get("yaxis", {}).get("title")) or "value"
    if any("q1" in t for t in traces):
        rows = []
        for t in traces:
            parts = [_array(t.get(k)) for k in ("x", "lowerfence", "q1", "median", "q3", "upperfence")]
            rows += [[_text(p[i]) if i < len(p) else "" for p in parts] for i in range(len(parts[0]))]
        return [cat_title, "shortest", "first quartile", "median", "third quartile", "longest"], rows
    rows = []
    for t in traces:
        texts = _array(t.get("text"))
        for i, (c, v) in enumerate(zip(_array(t.get("x")), _array(t.get("y")), strict=False)):
            rows.append([str(c), str(texts[i]) if i < len(texts) else "", _text(v)])
    return [cat_title, "case", value_title], rows


def describe(fig: dict) -> str:
    """What a chart shows, in a sentence or two: its title, its kind, what is drawn against what,
    and its series."""
    layout = fig.get("layout", {})
    traces = fig.get("data", [])
    title = _title(layout.get("title")) or "A chart"
    kinds = list(dict.fromkeys(KINDS.get(t.get("type", "scatter"), "Chart") for t in traces))
    if traces and traces[0].get("type") == "bar" and any(t.get("type") == "scatter" for t in traces):
        kinds = ["Bar and line chart"]
    kind = kinds[0] if kinds else "Chart"
    if any(t.get("type") == "sunburst" for t in traces):
        return f"{title}. {kind}: each ring splits the one inside it, each piece as large as its figure."
    flat = bool(traces) and traces[0].get("orientation") == "h"
    cat = _title(layout.get("yaxis" if flat else "xaxis", {}).get("title"))
    val = _title(layout.get("xaxis" if flat else "yaxis", {}).get("title"))
    what = f" of {val.lower()}" if val else ""
    by = f" by {cat.lower()}" if cat else ""
    names = [str(t["name"]) for t in traces if t.get("name")]
    series = ""
    if len(names) > 1:
        series = f", in {len(names)} series: " + ", ".join(names[:8]) + (" and others" if len(names) > 8 else "")
    return f"{title}. {kind}{what}{by}{series}."


_CHARTS = itertools.count(1)


def number_from_one() -> None:
    """A page numbers its charts from chart-1, in a kernel of its own or after another page in
    this process (pipeline/reports/inprocess.py); charts.setup() calls it as a page begins."""
    global _CHARTS
    _CHARTS = itertools.count(1)


def figure_html(fig: dict, drawing: str) -> str:
    """plotly's drawing of `fig` inside the reports' chart figure (templates/html/chart.html.j2)."""
    from pipeline.reports.html import piece_template

    head, rows = chart_table(fig)
    return str(piece_template("chart.html.j2", chart_id=f"chart-{next(_CHARTS)}", label=describe(fig),
                              title=_title(fig.get("layout", {}).get("title")), head=head, rows=rows,
                              drawing=Markup(drawing)))
