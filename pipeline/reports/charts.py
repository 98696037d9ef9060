"""plotly figures for the reports, built from the DataFrames that review.py, trends.py and
read/reconciliation.py select from the finished models.

Each function returns a go.Figure, or None when there is nothing to draw (the
notebook then shows a note instead). Counts are plotted in heads or cases; money
is plotted in rupees (paise / 100) — only for drawing: every amount written as
text, in the tables and in a bar's hover, comes from the integer paise through
core.money (rs: "Rs 1,20,000.00").

setup() makes figures display as HTML with plotly.js embedded once per page and
nothing loaded from the network (see OfflineNotebookRenderer), each made readable and given its
words and table by chart_access.py.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio
from plotly.io.base_renderers import NotebookRenderer

from pipeline.core.money import rs
from pipeline.read.reconciliation import HEAD_LABELS
from pipeline.reports.chart_access import COLORS, KINDS, MONTH_TICKS, blank, figure_html, number_from_one, readable

SEVERITY_COLORS = {"high": "#C0392B", "medium": "#E69F00", "low": "#7F8C8D"}
STATUS_COLORS = {"matched": "#009E73", "late": "#56B4E9", "early": "#0072B2", "amount_mismatch": "#D55E00",
                 "missing": "#C0392B", "pending": "#BBBBBB", "unexpected": "#CC79A7"}
MONEY_HOVER = "%{customdata}"
RENDERER = "pound_offline"
OTHER_AXES = ("scene", "polar", "ternary", "geo", "coloraxis")    # layouts of charts the reports do not draw


class OfflineNotebookRenderer(NotebookRenderer):
    """plotly's "notebook" renderer without the network.

    Like pio.renderers["notebook"], it embeds plotly.js once, in the output of the first
    figure shown (not the CDN copy of "notebook_connected"), and gives each figure as
    text/html, which nbconvert keeps (papermill's default mimetype output has no chart in
    the HTML). Unlike it, a figure does not add a <script src> for MathJax from a CDN.
    """

    def to_mimebundle(self, fig_dict):
        fig_dict = readable(fig_dict)
        html = pio.to_html(fig_dict, config=self.config, include_plotlyjs=False, include_mathjax=False,
                           full_html=False, default_width="100%", default_height=440, validate=False)
        return {"text/html": figure_html(fig_dict, html)}


def setup() -> None:
    """Use the offline renderer and the reports' look for every figure from now on, the page's
    charts numbered from 1."""
    number_from_one()
    # no toolbar: its buttons would be controls inside an image (role="img"); the chart's figures
    # stand in its table, and a reader who wants the drawing larger zooms the page
    pio.renderers[RENDERER] = OfflineNotebookRenderer(config={"displaylogo": False, "responsive": True,
                                                              "displayModeBar": False})
    pio.renderers.default = RENDERER
    white = pio.templates["plotly_white"]
    # plotly_white's look for the kinds of trace the reports draw (chart_access.KINDS), not its
    # styling of the twenty others, nor of the 3-D, polar, ternary and map axes no report has: each
    # figure carries its template, copied as it is made
    flat = {k: v for k, v in white.layout.to_plotly_json().items() if k not in OTHER_AXES}
    template = go.layout.Template(layout=flat, data={kind: white.data[kind] for kind in KINDS})
    template.layout.colorway = COLORS
    template.layout.font = dict(family="Segoe UI, Helvetica, Arial, sans-serif", size=13, color="#222")
    template.layout.title = dict(font=dict(size=17), x=0.01, xanchor="left")
    # the legend stands right of the plot, under the title's line: never over the title, however
    # many lines it takes on a narrow (printed) page
    template.layout.legend = dict(orientation="v", yanchor="top", y=1, xanchor="left", x=1.02, traceorder="normal")
    template.layout.separators = ".,"
    template.layout.xaxis.tickformat = ","
    template.layout.yaxis.tickformat = ","
    template.layout.margin = dict(t=90, l=70, r=20, b=60)
    pio.templates["pound"] = template
    pio.templates.default = "pound"


def _money(axis: str, paise) -> dict:
    """Amounts in paise as a trace's `axis` values (rupees, for drawing only) and as its
    customdata, the exact text the pages write ('Rs 1,20,000.00', core/money.py), which MONEY_HOVER shows."""
    amounts = [int(p) for p in paise]
    return {axis: [p / 100 for p in amounts], "customdata": [rs(p) for p in amounts]}


def _done(fig: go.Figure, title: str, x: str, y: str, **layout) -> go.Figure:
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, **layout)
    return fig


def _months_axis(fig: go.Figure, months) -> None:
    """Months in their order, named level (a slanted "2026-03" prints as "20", "26", "-03": a month
    broken across lines), and on a long axis every second, third... month named, each named whole
    (the hover and the chart's table name every month)."""
    months = list(months)
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=months, tickangle=0,
                     tickmode="linear", tick0=0, dtick=max(1, -(-len(months) // MONTH_TICKS)))


# --------------------------------------------------------------------------- monthly review

def rollforward(df, month_label: str):
    """Per pound: heads at the start, impounded, released, sold, disposed of, at the end of the month."""
    if df is None or len(df) == 0:
        return None
    fig = go.Figure()
    series = [("heads_start", "at the start", "#7F8C8D"), ("heads_impounded", "impounded", "#0072B2"),
              ("heads_released", "released", "#009E73"), ("heads_sold", "sold", "#D55E00"),
              ("heads_disposed", "disposed of", "#CC79A7"), ("heads_end", "at the end", "#34495E")]
    for col, name, color in series:
        fig.add_bar(x=df["pound_id"], y=df[col], name=name, marker_color=color,
                    hovertemplate="%{x}: %{y} heads " + name + "<extra></extra>")
    fig.update_layout(barmode="group")
    return _done(fig, f"Head-count roll-forward by pound, {month_label}", "Pound", "Heads")


def money_received(df, month_label: str, labels: dict):
    """Money received in the month, by the account the Act sends it to (and its section),
    coloured by whether it was paid at the pound or by a buyer at an auction. `labels`
    names the accounts in words."""
    if df is None or len(df) == 0:
        return None
    d = df.copy()
    # the section above the account's name: a label of two short lines keeps the bars wide on A4
    d["where"] = "s." + d["section"] + "<br>" + d["account"].map(lambda a: labels.get(a, a))
    d["from"] = d["from_account"].map(lambda a: labels.get(a, a))
    order = sorted(d["where"].unique())
    fig = go.Figure()
    for i, (source, part) in enumerate(d.groupby("from", sort=True)):
        fig.add_bar(y=part["where"], **_money("x", part["amount"]), orientation="h", name=str(source),
                    marker_color=COLORS[i % len(COLORS)],
                    hovertemplate="%{y}<br>" + MONEY_HOVER + " (" + str(source).lower() + ")<extra></extra>")
    # the payers' legend under the plot, not beside it: the accounts' names need the page's width
    fig.update_layout(barmode="stack", height=max(360, 180 + 44 * len(order)),
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.2, yanchor="top"))
    fig.update_yaxes(categoryorder="array", categoryarray=order[::-1], automargin=True)
    return _done(fig, f"Money received in {month_label}, by where the Act sends it", "Rupees", "")


def findings_by_rule(df, month_label: str):
    """Findings per rule, coloured by severity (df: rule_id, severity, findings: review.findings_by_rule)."""
    if df is None or len(df) == 0:
        return None
    fig = go.Figure()
    for sev in ("high", "medium", "low"):
        part = df[df["severity"] == sev]
        if len(part) == 0:
            continue
        # bars lie along the page, so that a rule id reads on one line, on paper too
        fig.add_bar(y=list(part["rule_id"]), x=[int(n) for n in part["findings"]], name=sev, orientation="h",
                    marker_color=SEVERITY_COLORS[sev],
                    hovertemplate="%{y}: %{x} finding(s), " + sev + "<extra></extra>")
    rules = sorted(set(df["rule_id"]))
    fig.update_layout(barmode="stack", height=max(300, 140 + 30 * len(rules)), bargap=0.4)
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(categoryorder="array", categoryarray=rules[::-1], automargin=True)
    return _done(fig, f"Findings of {month_label} by rule and severity", "Findings", "")


# --------------------------------------------------------------------------- reconciliation

LEDGER_LABELS = {"local_fund": "local fund", "dm_deposit": "DM's deposit"}
DM_HEADS = {"receipt": "receipts", "credit_to_local_fund": "credits to local funds",
            "refund_to_claimant": "refunds to claimants"}


def _where(la, ledger: str) -> str:
    """A bar's local authority and ledger: 'LA01 · DM's deposit' ((none) for a row with no authority)."""
    return f"{la if isinstance(la, str) else '(none)'} · {LEDGER_LABELS.get(ledger, ledger)}"


def _head(ledger: str, head) -> str:
    """A head as a bar names it: the DM's in words, a local fund's as it is (fines, surplus)."""
    return DM_HEADS.get(head, str(head)) if ledger == "dm_deposit" else str(head)


def reconciliation_by_authority(df):
    """Expected against credited, per local authority and ledger (rupees)."""
    if df is None or len(df) == 0:
        return None
    x = [f"{_where(la, ld)} · {_head(ld, hd)}"
         for la, ld, hd in zip(df["local_authority_id"], df["ledger"], df["head"], strict=True)]
    fig = go.Figure()
    # bars lie along the page: each name reads on one line, on paper too
    fig.add_bar(y=x, **_money("x", df["expected"]), name="expected", marker_color="#0072B2", orientation="h",
                hovertemplate="%{y}<br>expected " + MONEY_HOVER + "<extra></extra>")
    fig.add_bar(y=x, **_money("x", df["credited"]), name="credited in the ledger", marker_color="#E69F00",
                orientation="h", hovertemplate="%{y}<br>credited " + MONEY_HOVER + "<extra></extra>")
    fig.update_layout(barmode="group", height=max(320, 140 + 44 * len(x)))
    fig.update_yaxes(categoryorder="array", categoryarray=x[::-1], automargin=True)
    return _done(fig, "Expected against credited, by local authority, ledger and head", "Rupees", "")


def _status_bar(la, ledger: str, head: str, status: str) -> str:
    """The bar a row of the reconciliation is drawn in: one per local authority and ledger, the DM's
    deposit one per head (what he received and what he passed on are never added together), and
    the entries nothing was due for in a bar of their own (an entry is not an expected credit)."""
    where = _where(la, ledger)
    if status == "unexpected":
        return where + " · nothing due"
    if ledger == "dm_deposit":
        return where + " · " + _head(ledger, head)
    return where


def reconciliation_status(rows):
    """Amounts by status per local authority, ledger and (the DM's deposit) head: the expected amount,
    or for an unexpected entry the amount entered.
    rows: ledger, local_authority_id, head, status, amount (the reconciliation's status_amount, summed).
    A bar adds up only amounts of one kind: expected credits of one ledger (of one head, for the DM's
    deposit), or entries nothing was due for."""
    if rows is None or len(rows) == 0:
        return None
    d = rows.copy()
    d["where"] = [_status_bar(la, lg, hd, st) for la, lg, hd, st in
                  zip(d["local_authority_id"], d["ledger"], d["head"], d["status"], strict=True)]
    d["amount"] = [0 if blank(v) else int(v) for v in d["amount"]]
    order = sorted(d["where"].unique(), key=lambda w: (w.split(" · ")[1], w))
    fig = go.Figure()
    for status, color in STATUS_COLORS.items():
        part = d[d["status"] == status]
        if len(part) == 0:
            continue
        # a bar may hold several heads of one status (fines and surplus): each is its own piece
        fig.add_bar(y=list(part["where"]), **_money("x", part["amount"]), name=status.replace("_", " "),
                    orientation="h", marker_color=color, text=[HEAD_LABELS.get(h, str(h)) for h in part["head"]],
                    textposition="none",
                    hovertemplate="%{y}: " + status.replace("_", " ") + ", %{text} " + MONEY_HOVER + "<extra></extra>")
    fig.update_layout(barmode="stack", height=max(320, 140 + 30 * len(order)))
    fig.update_yaxes(categoryorder="array", categoryarray=order[::-1], automargin=True)
    return _done(fig, "Expected credits by status, and entries nothing was due for", "Rupees", "")


def ageing(df):
    """What is missing, by days outstanding past its due day, per ledger (rupees)."""
    if df is None or len(df) == 0 or int(df["items"].sum()) == 0:
        return None
    fig = go.Figure()
    for ledger, color in (("local_fund", "#0072B2"), ("dm_deposit", "#CC79A7")):
        fig.add_bar(x=df["ageing"], **_money("y", df[ledger]), name=LEDGER_LABELS[ledger], marker_color=color,
                    hovertemplate="%{x}: " + MONEY_HOVER + "<extra></extra>")
    fig.update_layout(barmode="stack")
    fig.update_xaxes(type="category")
    return _done(fig, "Ageing of missing credits", "Days outstanding since the credit was due", "Rupees")


# --------------------------------------------------------------------------- trends

SERIES_SHOWN = 12


def impoundments(drawn, months, by: str = "pound_id"):
    """Heads impounded per month, stacked by pound (by='pound_id') or taluk (by='taluk'); drawn is
    trends.impoundments_by: the busiest ones by name, each a series, and the rest as one."""
    names, each, rest, others = drawn
    if not names:
        return None
    # the series in the order of their names (P01, P02, P03), the rest last
    series = [(str(n), each[each[by] == n].set_index("month")["heads_impounded"]) for n in sorted(names, key=str)]
    if rest is not None:
        series.append((f"{others} others", rest.set_index("month")["heads_impounded"]))
    fig = go.Figure()
    for name, heads in series:
        heads = heads.reindex(list(months), fill_value=0)
        fig.add_bar(x=list(heads.index), y=[int(v) for v in heads], name=name,
                    hovertemplate="%{x}: %{y} heads at " + name + "<extra></extra>")
    fig.update_layout(barmode="stack")
    _months_axis(fig, months)
    what = "pound" if by == "pound_id" else by
    return _done(fig, f"Heads impounded by month and {what}", "Month impounded", "Heads")


def impoundments_by_class(df, months):
    """Heads impounded per month, stacked by animal class (df: month, animal_class, heads)."""
    if df is None or len(df) == 0:
        return None
    g = df.pivot(index="month", columns="animal_class", values="heads").fillna(0)     # one row per month and class
    g = g.reindex(list(months), fill_value=0)
    fig = go.Figure()
    for col in g.columns:
        fig.add_bar(x=list(g.index), y=[int(v) for v in g[col]], name=str(col),
                    hovertemplate="%{x}: %{y} " + str(col) + "<extra></extra>")
    fig.update_layout(barmode="stack")
    _months_axis(fig, months)
    return _done(fig, "Heads impounded by month and animal class", "Month impounded", "Heads")


def outcome_shares(df, months):
    """Share of the cases of each month sold unclaimed (s.15) and with any head sold; months with no case are gaps."""
    if df is None or len(df) == 0:
        return None
    d = df.set_index("month").reindex(list(months))
    x = list(d.index)

    def col(name):
        return [None if blank(v) else float(v) for v in d[name]]

    def count(name):
        return [0 if blank(v) else int(v) for v in d[name]]

    fig = go.Figure()
    fig.add_bar(x=x, y=count("cases"), name="cases impounded", yaxis="y2", marker_color="rgba(0,0,0,0.12)",
                hovertemplate="%{x}: %{y} case(s) impounded<extra></extra>")
    fig.add_scatter(x=x, y=col("share_unclaimed"), mode="lines+markers", name="sold unclaimed (s.15)",
                    line_color="#D55E00", customdata=count("sold_unclaimed"), connectgaps=False,
                    hovertemplate="%{x}: %{y:.1f}% (%{customdata} case(s)) sold unclaimed<extra></extra>")
    fig.add_scatter(x=x, y=col("share_sold"), mode="lines+markers", name="any head sold (s.15 or s.17)",
                    line_color="#0072B2", line_dash="dot", customdata=count("sold_any"), connectgaps=False,
                    hovertemplate="%{x}: %{y:.1f}% (%{customdata} case(s)) with heads sold<extra></extra>")
    fig.update_layout(yaxis=dict(range=[0, 105], ticksuffix="%", tickformat=".0f"),
                      yaxis2=dict(title="Cases impounded", overlaying="y", side="right", showgrid=False,
                                  rangemode="tozero", tickformat=",d"))
    _months_axis(fig, months)
    return _done(fig, "Share of cases sold unclaimed, and sold at all, by month impounded", "Month impounded",
                 "Share of the month's cases")


POINTS_SHOWN = 3000


def time_to_release(df):
    """Days from impounding to closing, by how the case closed: from the cases one by one
    (status, days_to_close, case_id), or from their quartiles by status (status, q1, median, q3,
    shortest, longest: trends.time_to_close_drawn past POINTS_SHOWN cases)."""
    if df is None or len(df) == 0:
        return None
    fig = go.Figure()
    if "q1" in df.columns:
        for r in df.to_dict("records"):
            fig.add_box(x=[r["status"]], name=str(r["status"]).replace("_", " "), q1=[float(r["q1"])],
                        median=[float(r["median"])], q3=[float(r["q3"])], lowerfence=[float(r["shortest"])],
                        upperfence=[float(r["longest"])], boxpoints=False)
        return _released(fig)
    # every case as a point (trends.time_to_close_drawn hands the quartiles instead past POINTS_SHOWN
    # cases: a state's million cases would make a page of hundreds of megabytes)
    for status in sorted(set(df["status"])):
        part = df[df["status"] == status]
        fig.add_box(x=[status] * len(part), y=part["days_to_close"], name=str(status).replace("_", " "), boxpoints="all",
                    jitter=0.4, pointpos=0, text=part["case_id"], hovertemplate="%{text}: %{y} day(s)<extra></extra>")
    return _released(fig)


def _released(fig: go.Figure) -> go.Figure:
    fig.update_layout(showlegend=False)
    fig.update_yaxes(rangemode="tozero")
    # a handful of statuses: their names read level (a slanted name prints as shreds of letters)
    fig.update_xaxes(tickangle=0, automargin=True)
    for trace in fig.data:
        trace.x = [str(v).replace("_", " ") for v in trace.x]
    return _done(fig, "Time from impounding to release or sale", "How the case closed",
                 "Days from impounding to closing")


def repeat_owners(df):
    """Owners with more than one case: number of cases each."""
    if df is None or len(df) == 0:
        return None
    top = df.head(25)
    labels = [f"{n} ({i})" if isinstance(n, str) and n else str(i) for n, i in zip(top["owner_name"], top["owner_id"],
                                                                                  strict=True)]
    fig = go.Figure()
    fig.add_bar(y=labels, x=top["cases"], orientation="h", marker_color="#CC79A7", customdata=top["heads"],
                hovertemplate="%{y}: %{x} cases, %{customdata} heads<extra></extra>")
    fig.update_layout(yaxis=dict(autorange="reversed"), height=max(300, 120 + 28 * len(top)), margin=dict(l=200))
    fig.update_xaxes(dtick=1)
    return _done(fig, "Owners whose cattle were impounded more than once", "Cases", "")


def fines(df, months):
    """Fines due against fines collected (owed to the local fund, s.18(2)), by month impounded (rupees)."""
    if df is None or len(df) == 0:
        return None
    fig = go.Figure()
    fig.add_bar(x=df["month"], **_money("y", df["fines_due"]), name="fines due (s.10(1))", marker_color="#0072B2",
                hovertemplate="%{x}: due " + MONEY_HOVER + "<extra></extra>")
    fig.add_bar(x=df["month"], **_money("y", df["fines_collected"]), name="collected, owed to the local fund (s.18(2))",
                marker_color="#009E73", hovertemplate="%{x}: collected " + MONEY_HOVER + "<extra></extra>")
    fig.update_layout(barmode="group")
    _months_axis(fig, months)
    return _done(fig, "Fines due against fines collected, by month impounded", "Month impounded", "Rupees")
