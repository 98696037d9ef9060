"""The three HTML reports: the queries behind them, money as text, and rendering.

The notebooks in notebooks/ (jupytext percent files) only call what is here and
in charts.py, so every query, every figure built from the database and the way
money is written can be tested without running a notebook.

Everything reads the finished tables of a database made by `pound run` or
`pound build` through a read-only connection; nothing is computed twice.
Money stays integer paise from the database to the page: it is summed in SQL as
BIGINT and written with `rupees()`. Only charts plot rupees as numbers.

Rendering (`render_reports`): each notebook is converted with jupytext, run by
papermill on the `python3` kernel with the parameters db, month and district,
and exported by nbconvert with the code hidden, through the template in
pipeline/reports/templates/pound, which loads nothing from the network (no require.js,
MathJax, mermaid or widget scripts). plotly.js is embedded once per page by
charts.setup(). As a last guard, any <script src=...> or stylesheet <link> that
points off the machine is removed from the page.
"""

from __future__ import annotations

import calendar
import datetime as dt
import html
import json
import math
import re
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipeline.core import paths
from pipeline.core.errors import PoundError
from pipeline.core.money import paise_text

ROOT = paths.ROOT
NOTEBOOK_DIR = paths.NOTEBOOK_DIR
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
SAMPLE_BUNDLE = paths.SAMPLE_BUNDLE
# The sample registers run from March to November 2026: the demo draws the
# accounts up to the last day of that last month.
SAMPLE_AS_OF = dt.date(2026, 11, 30)

# (file stem in notebooks/, title of the page)
REPORTS: tuple[tuple[str, str], ...] = (
    ("monthly_review", "Monthly accounts review"),
    ("reconciliation", "Local fund reconciliation"),
    ("trends", "Impoundment trends"),
)

# The tables the reports read; a database without them has not been built.
REQUIRED_TABLES = ("case_accounts", "fund_movements", "findings", "reconciliation", "monthly_accounts",
                   "parameters", "pounds", "local_authorities", "stg_case_timeline", "releases", "complaints",
                   "removal_orders", "loads")

SEVERITIES = ("high", "medium", "low")

ACCOUNT_LABELS = {
    "local_fund": "Local fund of the local authority",
    "pound_keeper": "Pound-keeper (feeding charges)",
    "pound_keeper_custody": "Security held by the pound-keeper",
    "protest_deposit_held": "Deposits under protest, held",
    "dm_deposit": "District Magistrate's deposit (unclaimed surplus)",
    "dm_remittance": "Sent to the District Magistrate (fines from sales)",
    "sale_officer": "Officer conducting the sale (expenses)",
    "owner": "Owner",
    "state_government": "State Government",
    "payer": "Paid at the pound",
    "buyer": "Buyer at an auction",
}

STATUS_ORDER = ("matched", "late", "early", "amount_mismatch", "missing", "pending", "unexpected")
# What each reconciliation status contributes to the two totals.
EXPECTED_SIDE = ("matched", "late", "early", "amount_mismatch", "missing", "pending")
LEDGER_SIDE = ("matched", "late", "early", "amount_mismatch", "unexpected")

AGEING_BUCKETS = ((0, 30, "up to 30 days"), (31, 60, "31-60 days"), (61, 90, "61-90 days"),
                  (91, 180, "91-180 days"), (181, 365, "181-365 days"), (366, None, "over a year"))


# --------------------------------------------------------------------------- money, months, text

def rupees(paise) -> str:
    """Integer paise as rupees with two decimals and thousands separators: 2200000 -> '22,000.00'.

    Blank for a missing value. Money is never carried as a float: a float is accepted
    only if it is a whole number of paise (pandas may hand one back), else TypeError.
    """
    if paise is None or paise is _NA():
        return ""
    if isinstance(paise, float):
        if math.isnan(paise):
            return ""
        if not paise.is_integer():
            raise TypeError(f"money must be whole paise, got {paise!r}")
    return paise_text(paise, grouping=True)


def _NA():
    try:
        import pandas as pd
        return pd.NA
    except ImportError:  # pragma: no cover
        return None


def month_bounds(month: str) -> tuple[dt.date, dt.date]:
    """First and last day of a month written YYYY-MM."""
    m = re.fullmatch(r"(\d{4})-(\d{2})", str(month or ""))
    if not m or not 1 <= int(m.group(2)) <= 12:
        raise PoundError(f"{month!r} is not a month written YYYY-MM")
    y, mo = int(m.group(1)), int(m.group(2))
    return dt.date(y, mo, 1), dt.date(y, mo, calendar.monthrange(y, mo)[1])


def month_label(month: str) -> str:
    first, _ = month_bounds(month)
    return first.strftime("%B %Y")


class Html(str):
    """A piece of HTML that a notebook displays as HTML (it is also a plain str)."""

    def _repr_html_(self) -> str:
        return str(self)


def esc(value) -> str:
    return html.escape("" if value is None else str(value))


def note(text: str, kind: str = "note") -> Html:
    """A short paragraph in a box: kind 'note', 'empty' or 'warn'."""
    return Html(f'<p class="pound-{kind}">{esc(text)}</p>')


def heading(text: str, level: int = 1) -> Html:
    return Html(f"<h{level}>{esc(text)}</h{level}>")


def _is_blank(v) -> bool:
    if v is None or v is _NA():
        return True
    try:
        return bool(v != v)  # NaN, NaT
    except (TypeError, ValueError):
        return False


def _cell(v, money: bool, percent: bool) -> tuple[str, str]:
    """(text, css class) for one value."""
    if _is_blank(v):
        return "", "blank"
    if money:
        return rupees(v), "num money"
    if percent:
        return f"{float(v):.1f}%", "num"
    if isinstance(v, bool):
        return ("yes" if v else "no"), "text"
    if isinstance(v, int) or type(v).__name__.startswith(("int", "uint", "Int")):
        return f"{int(v):,}", "num"
    if isinstance(v, float):
        return f"{v:,.1f}", "num"
    if hasattr(v, "date") and callable(v.date) and type(v).__name__ == "Timestamp":
        return v.date().isoformat(), "date"
    if isinstance(v, dt.date):
        return v.isoformat(), "date"
    return str(v), "text"


MAX_ROWS = 500      # rows shown in one table of a page; the CSV exports and the workbook hold them all


def table(df, *, money: Iterable[str] = (), percent: Iterable[str] = (), labels: dict | None = None,
          table_id: str | None = None, empty: str = "Nothing to show.", total: str | None = None,
          row_class: str | None = None, max_rows: int = MAX_ROWS) -> Html:
    """A DataFrame as an HTML table; money columns (integer paise) written with rupees().

    Every cell carries data-col (the column's name) so a reader or a test can find a figure.
    `total` adds a last row with that label summing the numeric and money columns (of every
    row, shown or not). Only the first `max_rows` rows are shown, with a line saying how many
    more there are: a state's registers would otherwise make a page no browser opens.
    `row_class` names a column whose value becomes the row's CSS class (a column named
    "row_class" is not shown).
    """
    money, percent, labels = set(money), set(percent), dict(labels or {})
    if df is None or len(df) == 0:
        return note(empty, "empty")
    hidden = max(0, len(df) - max_rows)
    cols = [c for c in df.columns if c != "row_class"]
    ident = f' id="{esc(table_id)}"' if table_id else ""
    out = [f'<div class="pound-scroll"><table class="pound-table"{ident}><thead><tr>']
    for c in cols:
        cls = "num" if c in money or c in percent or _numeric(df[c]) else "text"
        head = labels.get(c, c.replace("_", " "))
        if c in money:
            head += " (Rs)"
        out.append(f'<th class="{cls}" data-col="{esc(c)}">{esc(head)}</th>')
    out.append("</tr></thead><tbody>")
    for rec in (df.head(max_rows) if hidden else df).to_dict("records"):
        rc = f' class="{esc(rec.get(row_class))}"' if row_class and not _is_blank(rec.get(row_class)) else ""
        out.append(f"<tr{rc}>")
        for c in cols:
            text, cls = _cell(rec[c], c in money, c in percent)
            out.append(f'<td class="{cls}" data-col="{esc(c)}">{esc(text)}</td>')
        out.append("</tr>")
    out.append("</tbody>")
    if total is not None:
        out.append('<tfoot><tr class="total">')
        for i, c in enumerate(cols):
            if i == 0:
                text, cls = total, "text"
            elif c in money or (_numeric(df[c]) and c not in percent and not _float(df[c])):
                s = sum(int(v) for v in df[c] if not _is_blank(v))
                text, cls = (rupees(s), "num money") if c in money else (f"{s:,}", "num")
            else:
                text, cls = "", "blank"
            out.append(f'<td class="{cls}" data-col="{esc(c)}">{esc(text)}</td>')
        out.append("</tr></tfoot>")
    out.append("</table></div>")
    if hidden:
        out.append(f'<p class="pound-note">The first {max_rows:,} of {len(df):,} rows are shown'
                   f'{" (the total is of all of them)" if total is not None else ""}; every row is in the CSV '
                   f'exports and the audit workbook written by pound run.</p>')
    return Html("".join(out))


def _numeric(series) -> bool:
    import pandas as pd
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _float(series) -> bool:
    import pandas as pd
    return pd.api.types.is_float_dtype(series)


def key_figures(items: Sequence[tuple[str, str]]) -> Html:
    """A row of headline figures: (label, value as text)."""
    cells = "".join(f'<div class="pound-kf"><div class="v">{esc(v)}</div><div class="l">{esc(k)}</div></div>'
                    for k, v in items)
    return Html(f'<div class="pound-kfs">{cells}</div>')


def figure_or_note(fig, text: str | None = None):
    """The figure; when there was nothing to draw (charts return None then), the note, or nothing."""
    if fig is not None:
        return fig
    return note(text, "empty") if text else Html("")


# --------------------------------------------------------------------------- database

def connect(db):
    """A read-only connection to a built database; PoundError with a plain reason otherwise."""
    import duckdb

    path = Path(db)
    if not path.exists():
        raise PoundError(f"database {path} does not exist; make one with 'pound run BUNDLE --out DIR' "
                         "(it is written to DIR/pound.duckdb)")
    if path.is_dir():
        raise PoundError(f"--db {path} is a folder, not a database file")
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        if "lock" in reason.lower():
            raise PoundError(f"database {path} is being written by another program; "
                             f"try again when it has finished ({reason})") from None
        raise PoundError(f"{path} is not a database written by 'pound run' or 'pound ingest' ({reason})") from None
    have = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
    missing = [t for t in REQUIRED_TABLES if t not in have]
    if missing:
        con.close()
        raise PoundError(f"{path} holds no finished accounts (no table {', '.join(missing)}); "
                         f"compute them with 'pound build --db {path} --out DIR'")
    return con


def _params(sql: str, params: dict) -> dict:
    return {k: v for k, v in params.items() if re.search(r"\$" + k + r"\b", sql)}


def query(con, sql: str, **params):
    """Run a read-only query with $named parameters (only those the SQL uses) into a DataFrame."""
    return con.execute(sql, _params(sql, params)).df()


def parameter(con, name: str, default=None):
    """A statutory reading from the parameters table, its JSON value decoded."""
    row = con.execute("SELECT value FROM parameters WHERE name = $n", {"n": name}).fetchone()
    if row is None or row[0] is None:
        return default
    try:
        return json.loads(row[0])
    except (TypeError, ValueError):
        return row[0]


def as_of(con) -> dt.date | None:
    value = parameter(con, "as_of")
    try:
        return dt.date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def districts(con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT DISTINCT district FROM pounds WHERE district IS NOT NULL ORDER BY 1").fetchall()]


def check_district(con, district: str | None) -> str | None:
    """The district as the database spells it (case is ignored), or PoundError naming those it has."""
    if district is None or str(district).strip() == "":
        return None
    known = districts(con)
    for d in known:
        if d.lower() == str(district).strip().lower():
            return d
    raise PoundError(f"no pound is in district {district!r}; the database has "
                     + (", ".join(repr(d) for d in known) if known else "no pounds"))


# District filters. A pound's district is in pounds; a s.14 order has no pound, so its
# district is that of the pounds in its taluk; a ledger row has its local authority's.
_ALL = "CAST($district AS VARCHAR) IS NULL"
POUND_IN_DISTRICT = f"({_ALL} OR {{col}} IN (SELECT pound_id FROM pounds WHERE district = $district))"
ORDER_IN_DISTRICT = (f"({_ALL} OR {{col}} IN (SELECT o.order_id FROM removal_orders o JOIN pounds p "
                     "ON p.taluk = o.taluk WHERE p.district = $district))")
LA_IN_DISTRICT = (f"({_ALL} OR {{col}} IN (SELECT local_authority_id FROM local_authorities WHERE district = $district) "
                  "OR {col} IN (SELECT local_authority_id FROM pounds WHERE district = $district))")


def _pound_filter(col: str) -> str:
    return POUND_IN_DISTRICT.format(col=col)


def month_has_activity(con, month: str, district: str | None) -> bool:
    """Whether anything was impounded, left a pound, was paid, found or booked in the month."""
    first, last = month_bounds(month)
    sql = f"""
    SELECT
      (SELECT count(*) FROM monthly_accounts WHERE month = $month AND {_pound_filter('pound_id')}
         AND (heads_start + heads_impounded + heads_released + heads_sold + heads_end) > 0)
    + (SELECT count(*) FROM fund_movements WHERE due_on BETWEEN $first AND $last
         AND ({_pound_filter('pound_id')} OR {ORDER_IN_DISTRICT.format(col='ref_id')}))
    + (SELECT count(*) FROM findings WHERE event_on BETWEEN $first AND $last
         AND ({_pound_filter('pound_id')} OR {ORDER_IN_DISTRICT.format(col='subject_id')}))
    """
    n = con.execute(sql, _params(sql, dict(month=month, first=first, last=last, district=district))).fetchone()[0]
    return bool(n)


def parameters_block(con, *, db, month: str, district: str | None, report: str) -> Html:
    """The report's parameters and what it was drawn from, for the top of the page."""
    first, last = month_bounds(month)
    asof = as_of(con)
    changed = con.execute("SELECT name, value FROM parameters WHERE NOT is_default AND name <> 'as_of' "
                          "ORDER BY name").fetchall()
    files, loaded_at = con.execute("SELECT count(*), max(loaded_at) FROM loads").fetchone()
    rows = [
        ("Report", report),
        ("Month", f"{month} ({month_label(month)}: {first.isoformat()} to {last.isoformat()})"),
        ("District", district or "all districts"),
        ("Database", str(db)),
        ("Accounts drawn up to (as of)", asof.isoformat() if asof else "not recorded"),
        ("Register files loaded", f"{files:,}" + (f", last on {loaded_at:%Y-%m-%d %H:%M}" if loaded_at else "")),
        ("Readings changed from the defaults",
         "; ".join(f"{n} = {v}" for n, v in changed) if changed else "none (every statutory reading is the default)"),
    ]
    body = "".join(f'<tr><th>{esc(k)}</th><td data-param="{esc(k)}">{esc(v)}</td></tr>' for k, v in rows)
    html_ = f'<table class="pound-params" id="parameters"><tbody>{body}</tbody></table>'
    if asof and last > asof:
        html_ += str(note(f"The month runs past {asof.isoformat()}, the date the accounts are drawn up to: "
                          "nothing after that date is in these figures.", "warn"))
    return Html(html_)


# --------------------------------------------------------------------------- monthly review

def rollforward(con, month: str, district: str | None = None):
    """Per pound: heads at the start of the month, impounded, released, sold, at the end."""
    sql = f"""
    SELECT m.pound_id, p.name AS pound, m.taluk, m.heads_start, m.heads_impounded, m.heads_released,
           m.heads_sold, m.heads_end, m.cases_impounded,
           CASE WHEN m.heads_start + m.heads_impounded - m.heads_released - m.heads_sold = m.heads_end
                THEN 'yes' ELSE 'NO' END AS ties
    FROM monthly_accounts m LEFT JOIN pounds p USING (pound_id)
    WHERE m.month = $month AND {_pound_filter('m.pound_id')}
    ORDER BY m.pound_id
    """
    return query(con, sql, month=month, district=district)


MONEY_BY_POUND = (
    ("fines_collected", "fines collected (s.18(2))"),
    ("feeding_collected", "feeding charges collected (s.18(3))"),
    ("protest_deposits", "deposits under protest (s.16(1))"),
    ("security_received", "security received (s.13, s.18(4))"),
    ("security_refunded", "security refunded (s.13(2))"),
    ("security_forfeited", "security forfeited (s.13(2))"),
    ("sale_proceeds", "sale proceeds"),
    ("sale_expenses", "expenses of sale (s.17(2))"),
    ("surplus_to_dm", "surplus to the District Magistrate (s.18(5))"),
    ("local_fund_due", "credits due to the local fund"),
    ("local_fund_ledger", "credits found in the local fund's ledger"),
)


def money_by_pound(con, month: str, district: str | None = None):
    """The month's money measures of monthly_accounts: one row per measure, one column per pound and a total
    (integer paise)."""
    import pandas as pd

    cols = ", ".join(c for c, _ in MONEY_BY_POUND)
    sql = f"""
    SELECT pound_id, {cols} FROM monthly_accounts
    WHERE month = $month AND {_pound_filter('pound_id')} ORDER BY pound_id
    """
    df = query(con, sql, month=month, district=district)
    if len(df) == 0:
        return pd.DataFrame(columns=["measure"])
    out = pd.DataFrame({"measure": [label for _, label in MONEY_BY_POUND]})
    for rec in df.to_dict("records"):
        out[rec["pound_id"]] = pd.array([int(rec[c]) for c, _ in MONEY_BY_POUND], dtype="int64")
    out["all pounds"] = pd.array([sum(int(v) for v in df[c]) for c, _ in MONEY_BY_POUND], dtype="int64")
    return out


def money_by_pound_table(con, month: str, district: str | None = None) -> Html:
    df = money_by_pound(con, month, district)
    return table(df, money=[c for c in df.columns if c != "measure"], table_id="money-by-pound",
                 empty=f"No pound has accounts for {month_label(month)}.")


def _movements(con, month: str, district: str | None, hop_filter: str):
    first, last = month_bounds(month)
    sql = f"""
    SELECT section, from_account, account, CAST(sum(amount) AS BIGINT) AS amount, count(*) AS movements
    FROM fund_movements
    WHERE due_on BETWEEN $first AND $last AND {hop_filter}
      AND ({_pound_filter('pound_id')} OR (ref_kind = 'order' AND {ORDER_IN_DISTRICT.format(col='ref_id')}))
    GROUP BY section, from_account, account
    ORDER BY section, account, from_account
    """
    df = query(con, sql, first=first, last=last, district=district)
    df.insert(2, "to", df["account"].map(lambda a: ACCOUNT_LABELS.get(a, a)))
    df["from"] = df["from_account"].map(lambda a: ACCOUNT_LABELS.get(a, a))
    return df


def money_received(con, month: str, district: str | None = None):
    """Money received in the month (first movements, from a payer or a buyer), by section and account."""
    df = _movements(con, month, district, "hop = 1")
    return df[["section", "from", "to", "account", "amount", "movements"]]


def money_passed_on(con, month: str, district: str | None = None):
    """Onward movements due in the month: money already held, passed on under the Act."""
    df = _movements(con, month, district, "hop > 1")
    return df[["section", "from", "to", "account", "amount", "movements"]]


def sales_in_month(con, month: str, district: str | None = None):
    """Cases sold in the month (last accepted auction in it) and where the proceeds went."""
    first, last = month_bounds(month)
    sql = f"""
    SELECT case_id, pound_id, last_sale_id AS sale_id, sold_on,
           CASE WHEN s17_sale THEN 's.17 (owner refused to pay)' ELSE 's.15 (unclaimed)' END AS sale_under,
           head_sold, sale_proceeds, sale_expenses, sale_paid_feeding AS feeding, sale_paid_fines AS fines,
           sale_paid_security AS security, balance_to_owner, surplus_unclaimed AS surplus_to_dm, unrecovered
    FROM case_accounts
    WHERE sold_on BETWEEN $first AND $last AND {_pound_filter('pound_id')}
    ORDER BY sold_on, case_id
    """
    return query(con, sql, first=first, last=last, district=district)


SALE_MONEY = ("sale_proceeds", "sale_expenses", "feeding", "fines", "security", "balance_to_owner",
              "surplus_to_dm", "unrecovered")


def findings_in_month(con, month: str, district: str | None = None):
    """Findings whose event falls in the month: high severity first, then by date."""
    first, last = month_bounds(month)
    sql = f"""
    SELECT severity, rule_id, section, subject_kind || ' ' || subject_id AS subject, case_id, pound_id,
           event_on, detail
    FROM findings
    WHERE event_on BETWEEN $first AND $last
      AND ({_pound_filter('pound_id')} OR (pound_id IS NULL AND {ORDER_IN_DISTRICT.format(col='subject_id')}))
    ORDER BY CASE severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END,
             event_on, rule_id, subject
    """
    return query(con, sql, first=first, last=last, district=district)


def deadlines(con, month: str, district: str | None = None):
    """Cases pending at the end of the month that reach a statutory deadline within the horizon.

    With E the last day of the month and h the parameter deadline_horizon (7 days), a
    deadline on E+1 .. E+h is listed when, at the end of E, the step it calls for was not
    yet taken:
      - s.15(1) claim window ends on D+w (cattle impounded on D, w = 7, or 3 for asses and
        sheep): nothing of the case had left the pound and the owner had not appeared;
      - s.15(1) report to the police due on D+w+1 (+ report_grace): not yet reported;
      - s.15(3) auction allowed from N+w+1 after the notice N: notice given, no auction yet;
      - s.15(3) auction overdue after N+w+1+sale_grace: the same, and the grace runs out;
      - s.16(2) complaint window ends on R+28 (complaint_window) after a delivery under
        protest on R: no complaint filed yet.
    Whether the step was later taken is not used: the list is what the DM faced at month end.
    """
    _, end = month_bounds(month)
    h = int(parameter(con, "deadline_horizon", 7))
    report_grace = int(parameter(con, "report_grace", 0))
    sale_grace = int(parameter(con, "sale_grace", 30))
    window = int(parameter(con, "complaint_window", 28))
    sql = f"""
    WITH t AS (
        SELECT t.*, c.owner_name, c.status
        FROM stg_case_timeline t JOIN case_accounts c USING (case_id)
        WHERE t.impounded_on <= $end AND {_pound_filter('t.pound_id')}
    ),
    held AS (  -- wholly in the pound at the end of the month, owner not come forward
        SELECT * FROM t WHERE (first_left_on IS NULL OR first_left_on > $end) AND NOT owner_appeared
    ),
    d AS (
        SELECT case_id, pound_id, '15(1)' AS section, 'claim window ends' AS deadline, claim_ends_on AS due_on,
               head_count || ' ' || animal_class || ' impounded on ' || impounded_on
               || '; unclaimed after this day they must be reported to the police' AS what
        FROM held
        UNION ALL
        SELECT case_id, pound_id, '15(1)', 'report to the police due',
               report_due_on + CAST($report_grace AS INTEGER),
               'not reported by the end of the month'
        FROM held WHERE reported_on IS NULL OR reported_on > $end
        UNION ALL
        SELECT case_id, pound_id, '15(3)', 'auction allowed from', notice_on + w + 1,
               'notice given on ' || notice_on || '; no auction attempted yet'
        FROM held WHERE notice_on <= $end AND (first_s15_attempt_on IS NULL OR first_s15_attempt_on > $end)
        UNION ALL
        SELECT case_id, pound_id, '15(3)', 'auction overdue after', notice_on + w + 1 + CAST($sale_grace AS INTEGER),
               'notice given on ' || notice_on || '; no auction attempted yet'
        FROM held WHERE notice_on <= $end AND (first_s15_attempt_on IS NULL OR first_s15_attempt_on > $end)
        UNION ALL
        SELECT r.case_id, c.pound_id, '16(2)', 'complaint window ends', r.released_on + CAST($window AS INTEGER),
               'delivered under protest on ' || r.released_on || ' (' || r.release_id || '); no complaint filed yet'
        FROM releases r JOIN case_accounts c USING (case_id)
        WHERE r.basis = 's16_protest' AND r.released_on <= $end AND {_pound_filter('c.pound_id')}
          AND NOT EXISTS (SELECT 1 FROM complaints k WHERE k.case_id = r.case_id AND k.filed_on <= $end)
    )
    SELECT due_on, CAST(due_on - $end AS INTEGER) AS days_after_month_end, case_id, pound_id, section,
           deadline, what
    FROM d
    WHERE due_on > $end AND due_on <= $end + CAST($h AS INTEGER)
    ORDER BY due_on, case_id, section, deadline
    """
    return query(con, sql, end=end, h=h, report_grace=report_grace, sale_grace=sale_grace, window=window,
                 district=district)


def review_key_figures(roll, received, findings, due) -> Html:
    heads = {c: int(roll[c].sum()) if len(roll) else 0
             for c in ("heads_impounded", "heads_released", "heads_sold", "heads_end")}
    high = int((findings["severity"] == "high").sum()) if len(findings) else 0
    total = sum(int(v) for v in received["amount"]) if len(received) else 0
    return key_figures([
        ("heads impounded", f"{heads['heads_impounded']:,}"),
        ("heads released", f"{heads['heads_released']:,}"),
        ("heads sold", f"{heads['heads_sold']:,}"),
        ("heads in the pounds at month end", f"{heads['heads_end']:,}"),
        ("money received (Rs)", rupees(total)),
        ("high-severity findings", f"{high:,}"),
        ("deadlines in the next days", f"{len(due):,}"),
    ])


# --------------------------------------------------------------------------- reconciliation

def reconciliation_rows(con, district: str | None = None):
    """Every row of the reconciliation (as of the accounts' date), with the local authority's name."""
    sql = f"""
    SELECT r.ledger, r.local_authority_id, la.name AS local_authority, r.reference, r.head, r.status,
           r.expected_amount, r.ledger_amount, r.difference, r.due_on, r.entry_on, r.days_after_due,
           r.days_outstanding, r.entry_ids
    FROM reconciliation r LEFT JOIN local_authorities la USING (local_authority_id)
    WHERE {LA_IN_DISTRICT.format(col='r.local_authority_id')}
    ORDER BY r.ledger, r.local_authority_id, r.reference, r.head
    """
    return query(con, sql, district=district)


def reconciliation_by_authority(con, district: str | None = None):
    """Per ledger and local authority: expected, credited, difference and the count of each status."""
    counts = ", ".join(f"count(*) FILTER (WHERE status = '{s}') AS {s}" for s in STATUS_ORDER)
    sql = f"""
    SELECT r.ledger, r.local_authority_id, la.name AS local_authority,
           CAST(coalesce(sum(r.expected_amount), 0) AS BIGINT) AS expected,
           CAST(coalesce(sum(r.ledger_amount), 0) AS BIGINT) AS credited,
           CAST(sum(r.difference) AS BIGINT) AS difference,
           count(*) FILTER (WHERE status <> 'matched') AS breaks, {counts}
    FROM reconciliation r LEFT JOIN local_authorities la USING (local_authority_id)
    WHERE {LA_IN_DISTRICT.format(col='r.local_authority_id')}
    GROUP BY ALL ORDER BY r.ledger, r.local_authority_id
    """
    return query(con, sql, district=district)


def reconciliation_breaks(rows):
    """Every row whose status is not matched, worst first (missing and mismatches before timing)."""
    rank = {s: i for i, s in enumerate(("amount_mismatch", "missing", "unexpected", "late", "early", "pending"))}
    b = rows[rows["status"] != "matched"].copy()
    b["_r"] = b["status"].map(lambda s: rank.get(s, 99))
    b = b.sort_values(["_r", "ledger", "local_authority_id", "reference", "head"], kind="stable")
    b["row_class"] = "status-" + b["status"]
    return b.drop(columns=["_r"])[["ledger", "local_authority_id", "reference", "head", "status", "expected_amount",
                                   "ledger_amount", "difference", "due_on", "entry_on", "days_after_due",
                                   "days_outstanding", "entry_ids", "row_class"]]


def reconciliation_totals(con, district: str | None = None) -> list[dict]:
    """Per ledger: the amount of each status on each side, the sums and the totals, to show they tie.

    expected = matched + late + early + amount_mismatch (expected side) + missing + pending
    credited = matched + late + early + amount_mismatch (ledger side) + unexpected
    Each total is also taken straight from the table, and `ties` says whether they agree.
    """
    sql = f"""
    SELECT ledger, status, count(*) AS n,
           CAST(coalesce(sum(expected_amount), 0) AS BIGINT) AS expected,
           CAST(coalesce(sum(ledger_amount), 0) AS BIGINT) AS credited
    FROM reconciliation WHERE {LA_IN_DISTRICT.format(col='local_authority_id')}
    GROUP BY ALL ORDER BY ALL
    """
    parts = con.execute(sql, _params(sql, {"district": district})).fetchall()
    sql2 = f"""
    SELECT ledger, CAST(coalesce(sum(expected_amount), 0) AS BIGINT), CAST(coalesce(sum(ledger_amount), 0) AS BIGINT),
           CAST(coalesce(sum(difference), 0) AS BIGINT)
    FROM reconciliation WHERE {LA_IN_DISTRICT.format(col='local_authority_id')}
    GROUP BY ALL ORDER BY ALL
    """
    totals = {r[0]: r[1:] for r in con.execute(sql2, _params(sql2, {"district": district})).fetchall()}
    out = []
    for ledger in sorted(totals):
        by = {s: (0, 0, 0) for s in STATUS_ORDER}
        for lg, st, n, e, c in parts:
            if lg == ledger:
                by[st] = (int(n), int(e), int(c))
        exp_sum = sum(by[s][1] for s in EXPECTED_SIDE)
        led_sum = sum(by[s][2] for s in LEDGER_SIDE)
        t_exp, t_led, t_diff = (int(x) for x in totals[ledger])
        out.append(dict(ledger=ledger, by_status=by, expected_sum=exp_sum, credited_sum=led_sum,
                        expected_total=t_exp, credited_total=t_led, difference_total=t_diff,
                        ties=exp_sum == t_exp and led_sum == t_led and t_led - t_exp == t_diff))
    return out


def totals_table(tie: dict) -> Html:
    """One ledger's tie as a table, and the two sums written out."""
    by = tie["by_status"]
    rows = []
    for s in STATUS_ORDER:
        n, e, c = by[s]
        rows.append(f'<tr class="status-{s}"><td class="text" data-col="status">{esc(s)}</td>'
                    f'<td class="num" data-col="n">{n:,}</td>'
                    f'<td class="num money" data-col="expected">{rupees(e) if s in EXPECTED_SIDE else "—"}</td>'
                    f'<td class="num money" data-col="credited">{rupees(c) if s in LEDGER_SIDE else "—"}</td></tr>')
    ok = "yes" if tie["ties"] else "NO"
    foot = (f'<tr class="total"><td class="text">sum of the statuses</td><td></td>'
            f'<td class="num money" data-col="expected">{rupees(tie["expected_sum"])}</td>'
            f'<td class="num money" data-col="credited">{rupees(tie["credited_sum"])}</td></tr>'
            f'<tr class="total"><td class="text">total of the table</td><td></td>'
            f'<td class="num money" data-col="expected">{rupees(tie["expected_total"])}</td>'
            f'<td class="num money" data-col="credited">{rupees(tie["credited_total"])}</td></tr>'
            f'<tr class="total {"ok" if tie["ties"] else "bad"}"><td class="text">ties</td><td></td>'
            f'<td class="text" colspan="2" data-col="ties">{ok}</td></tr>')
    tbl = (f'<div class="pound-scroll"><table class="pound-table pound-ties" id="ties-{esc(tie["ledger"])}"><thead><tr>'
           '<th class="text">status</th><th class="num">rows</th><th class="num">expected (Rs)</th>'
           '<th class="num">credited in the ledger (Rs)</th></tr></thead><tbody>' + "".join(rows)
           + "</tbody><tfoot>" + foot + "</tfoot></table></div>")

    def eq(total, side, col):
        terms = " + ".join(f"{s.replace('_', ' ')} {rupees(by[s][col])}" for s in side)
        return f"{rupees(total)} = {terms}"

    text = (f'<p class="pound-eq">Expected: {esc(eq(tie["expected_sum"], EXPECTED_SIDE, 1))}</p>'
            f'<p class="pound-eq">Credited: {esc(eq(tie["credited_sum"], LEDGER_SIDE, 2))}</p>'
            f'<p class="pound-eq">Credited − expected = {esc(rupees(tie["difference_total"]))} '
            f'(the sum of the differences of every row).</p>')
    return Html(tbl + text)


LEDGER_NAMES = {"local_fund": "local funds", "dm_deposit": "the District Magistrate's deposit"}


def totals_html(con, district: str | None = None) -> Html:
    """The tie of every ledger, one after the other."""
    ties = reconciliation_totals(con, district)
    if not ties:
        return note("The reconciliation has no rows.", "empty")
    return Html("".join(str(heading(f"Ledger: {LEDGER_NAMES.get(t['ledger'], t['ledger'])}", 3)) + str(totals_table(t))
                        for t in ties))


def ageing(rows):
    """What is missing, by how long it has been outstanding past its due day (as of the accounts' date).

    One row per bucket of days_outstanding: items and amount (integer paise), in all and per ledger.
    """
    import pandas as pd

    m = rows[rows["status"] == "missing"]
    out = []
    for lo, hi, label in AGEING_BUCKETS:
        d = m["days_outstanding"]
        sel = m[(d >= lo) & ((d <= hi) if hi is not None else True)]

        def total(frame):
            return sum(int(v) for v in frame["expected_amount"] if not _is_blank(v))

        out.append(dict(days_outstanding=label, items=len(sel), amount=total(sel),
                        local_fund=total(sel[sel["ledger"] == "local_fund"]),
                        dm_deposit=total(sel[sel["ledger"] == "dm_deposit"])))
    cols = ["days_outstanding", "items", "amount", "local_fund", "dm_deposit"]
    return pd.DataFrame(out, columns=cols).astype({c: "int64" for c in cols[1:]})


def reconciliation_in_month(rows, month: str):
    """Rows due in the month or entered in a ledger in it."""
    first, last = month_bounds(month)

    def within(series):
        import pandas as pd
        s = pd.to_datetime(series)
        return (s >= pd.Timestamp(first)) & (s <= pd.Timestamp(last))

    sel = rows[within(rows["due_on"]) | within(rows["entry_on"])].copy()
    sel["row_class"] = "status-" + sel["status"]
    return sel[["ledger", "local_authority_id", "reference", "head", "status", "expected_amount", "ledger_amount",
                "difference", "due_on", "entry_on", "row_class"]]


# --------------------------------------------------------------------------- trends

def months_upto(con, month: str) -> list[str]:
    """Every month from the first one in the accounts to `month`."""
    first = con.execute("SELECT min(month) FROM monthly_accounts").fetchone()[0]
    start = month_bounds(first)[0] if first else month_bounds(month)[0]
    stop = month_bounds(month)[0]
    out, d = [], start
    while d <= stop:
        out.append(f"{d:%Y-%m}")
        d = (d + dt.timedelta(days=32)).replace(day=1)
    return out


def impoundments_by_month(con, month: str, district: str | None = None):
    """Month x pound (with taluk): heads and cases impounded, up to the month."""
    sql = f"""
    SELECT month, pound_id, taluk, heads_impounded, cases_impounded
    FROM monthly_accounts WHERE month <= $month AND {_pound_filter('pound_id')}
    ORDER BY month, pound_id
    """
    return query(con, sql, month=month, district=district)


def impoundments_by_class(con, month: str, district: str | None = None):
    """Heads impounded per month (rows) and animal class (columns), up to the month; months with none left out."""
    import pandas as pd

    _, last = month_bounds(month)
    sql = f"""
    SELECT strftime(impounded_on, '%Y-%m') AS month, animal_class, CAST(sum(head_count) AS BIGINT) AS heads
    FROM case_accounts WHERE impounded_on <= $last AND {_pound_filter('pound_id')}
    GROUP BY ALL ORDER BY ALL
    """
    long = query(con, sql, last=last, district=district)
    if len(long) == 0:
        return pd.DataFrame(columns=["month", "all classes"])
    wide = long.pivot_table(index="month", columns="animal_class", values="heads", aggfunc="sum", fill_value=0)
    wide = wide.astype("int64")
    wide["all classes"] = wide.sum(axis=1).astype("int64")
    wide.columns.name = None
    return wide.reset_index()


def outcomes_by_month(con, month: str, district: str | None = None):
    """By month of impoundment: cases, how many were sold unclaimed (s.15), how many had heads sold at all."""
    _, last = month_bounds(month)
    sql = f"""
    SELECT strftime(impounded_on, '%Y-%m') AS month, count(*) AS cases,
           count(*) FILTER (WHERE status = 'sold_unclaimed') AS sold_unclaimed,
           count(*) FILTER (WHERE coalesce(head_sold, 0) > 0) AS sold_any,
           count(*) FILTER (WHERE status = 'in_pound') AS still_in_pound
    FROM case_accounts WHERE impounded_on <= $last AND {_pound_filter('pound_id')}
    GROUP BY ALL ORDER BY ALL
    """
    df = query(con, sql, last=last, district=district)
    df["share_unclaimed"] = 100.0 * df["sold_unclaimed"] / df["cases"]
    df["share_sold"] = 100.0 * df["sold_any"] / df["cases"]
    return df


def time_to_release(con, month: str, district: str | None = None):
    """Closed cases impounded up to the month: days from impounding to closing (release or sale)."""
    _, last = month_bounds(month)
    sql = f"""
    SELECT case_id, pound_id, taluk, animal_class, status, impounded_on, closed_on,
           CAST(closed_on - impounded_on AS INTEGER) AS days
    FROM case_accounts
    WHERE impounded_on <= $last AND closed_on IS NOT NULL AND closed_on <= $last AND {_pound_filter('pound_id')}
    ORDER BY impounded_on, case_id
    """
    return query(con, sql, last=last, district=district)


def time_to_release_summary(ttr):
    import pandas as pd

    if len(ttr) == 0:
        return pd.DataFrame(columns=["status", "cases", "median_days", "longest_days"])
    g = ttr.groupby("status")["days"]
    out = pd.DataFrame({"cases": g.size(), "median_days": g.median(), "longest_days": g.max()}).reset_index()
    return out.sort_values("cases", ascending=False, kind="stable")


def repeat_owners(con, month: str, district: str | None = None):
    """Owners with more than one case impounded up to the month."""
    _, last = month_bounds(month)
    sql = f"""
    SELECT owner_id, any_value(owner_name) AS owner_name, count(*) AS cases, CAST(sum(head_count) AS BIGINT) AS heads,
           min(impounded_on) AS first_impounded, max(impounded_on) AS last_impounded,
           string_agg(DISTINCT pound_id, ', ' ORDER BY pound_id) AS pounds,
           string_agg(case_id, ', ' ORDER BY impounded_on, case_id) AS case_ids
    FROM case_accounts
    WHERE owner_id IS NOT NULL AND impounded_on <= $last AND {_pound_filter('pound_id')}
    GROUP BY owner_id HAVING count(*) > 1
    ORDER BY cases DESC, owner_id
    """
    return query(con, sql, last=last, district=district)


def fines_due_vs_collected(con, month: str, district: str | None = None):
    """By month of impoundment: fines due (s.10(1)) and fines credited to the local fund (s.18(2)) by the month's end.

    Collected counts every fine that reached the local fund for those cases, whichever way
    it came (paid at release, deducted from a sale and sent through the DM, taken from a
    deposit under protest), once; s.14(3) fines go to the State and are not in either.
    """
    _, last = month_bounds(month)
    sql = f"""
    WITH got AS (
        SELECT case_id, CAST(sum(amount) AS BIGINT) AS collected
        FROM fund_movements
        WHERE account = 'local_fund' AND section = '18(2)' AND ref_kind = 'case' AND due_on <= $last
        GROUP BY case_id
    )
    SELECT strftime(c.impounded_on, '%Y-%m') AS month, count(*) AS cases,
           CAST(coalesce(sum(c.fine_due), 0) AS BIGINT) AS fines_due,
           CAST(coalesce(sum(g.collected), 0) AS BIGINT) AS fines_collected
    FROM case_accounts c LEFT JOIN got g USING (case_id)
    WHERE c.impounded_on <= $last AND {_pound_filter('c.pound_id')}
    GROUP BY ALL ORDER BY ALL
    """
    df = query(con, sql, last=last, district=district)
    df["not_collected"] = (df["fines_due"] - df["fines_collected"]).astype("int64")
    return df


# --------------------------------------------------------------------------- rendering

_REMOTE_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>\s*</script\s*>", re.I)
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.I)


def strip_remote(page: str) -> str:
    """Remove any <script src> or <link href> that points off the machine (a guard; the template adds none)."""
    return _REMOTE_LINK.sub("", _REMOTE_SCRIPT.sub("", page))


def remote_references(page: str) -> list[str]:
    """The <script src> and <link href> tags of a page that would load from the network."""
    return _REMOTE_SCRIPT.findall(page) + _REMOTE_LINK.findall(page)


def _exporter():
    from nbconvert import HTMLExporter

    return HTMLExporter(template_name="pound", extra_template_basedirs=[str(TEMPLATE_DIR)],
                        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)


def notebook_html(nb, title: str) -> str:
    """An executed notebook as a page: code hidden, error-free streams only, nothing remote."""
    nb.metadata["title"] = title
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell["outputs"] = [o for o in cell.get("outputs", [])
                               if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
    body, _ = _exporter().from_notebook_node(nb)
    return strip_remote(body)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "district"


def report_paths(out: Path, month: str, district: str | None) -> list[Path]:
    suffix = f"_{_slug(district)}" if district else ""
    return [Path(out) / f"{name}_{month}{suffix}.html" for name, _ in REPORTS]


def _run_notebook(name: str, title: str, parameters: dict):
    import jupytext
    import papermill as pm
    from jupyter_client.kernelspec import NoSuchKernel

    source = NOTEBOOK_DIR / f"{name}.py"
    if not source.exists():
        raise PoundError(f"the notebook {source} is missing; the reports need the notebooks/ folder of the project")
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    try:
        # The kernel starts in the project root (resources' path; papermill's cwd= would chdir this
        # process), so that it imports this very package. Its own log is noise here (a warning that
        # it talks TCP on loopback, the interrupt jupyter_client sends at shutdown): an error in a
        # cell still comes back as PapermillExecutionError. Nothing needs a graceful shutdown.
        return pm.execute_notebook(nb, None, parameters=parameters, kernel_name="python3", progress_bar=False,
                                   log_output=False, request_save_on_cell_execute=False,
                                   resources={"metadata": {"path": str(ROOT)}},
                                   extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
                                   shutdown_kernel="immediate")
    except NoSuchKernel:
        raise PoundError("the Jupyter kernel 'python3' is not installed in this environment; run 'make install'") from None
    except pm.PapermillExecutionError as exc:
        if exc.ename == "PoundError":
            raise PoundError(exc.evalue) from None
        raise RuntimeError(f"the {title} report failed at cell {exc.exec_count}: {exc.ename}: {exc.evalue}") from None


def open_report(db, month: str, district: str | None):
    """What every report notebook starts with: plotly set up for an offline page, a read-only
    connection, the district checked against the database, and the month's label."""
    from pipeline.reports import charts

    charts.setup()
    con = connect(db)
    return con, check_district(con, district), month_label(month)


def render_reports(db: Path, month: str, district: str | None, out: Path) -> list[Path]:
    """Render the three reports of a month into `out`; returns the three HTML paths.

    The month must be written YYYY-MM; the database must have been built. A month with
    nothing in it still renders, each report saying so (and a note is printed).
    """
    db = Path(db).resolve()
    month_bounds(month)
    con = connect(db)
    try:
        district = check_district(con, district)
        active = month_has_activity(con, month, district)
    finally:
        con.close()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    if not active:
        where = f" in district {district}" if district else ""
        print(f"note: nothing was impounded, paid or found in {month}{where}; the reports say so", file=sys.stderr)
    params = {"db": str(db), "month": month, "district": district}
    paths = report_paths(out, month, district)
    def one(report, path):
        name, title = report
        nb = _run_notebook(name, title, params)
        page_title = f"{title}, {month}" + (f", {district}" if district else "")
        path.write_text(notebook_html(nb, page_title), encoding="utf-8")

    # The three kernels run side by side: most of a report's time is its kernel starting
    # and importing pandas and plotly, which overlaps well even on two cores.
    with ThreadPoolExecutor(max_workers=len(REPORTS)) as pool:
        for f in [pool.submit(one, rep, path) for rep, path in zip(REPORTS, paths, strict=True)]:
            f.result()
    return paths


def busiest_month(con) -> str:
    """The month with the most heads impounded, released or sold (the latest one on a tie)."""
    row = con.execute("""
        SELECT month FROM monthly_accounts GROUP BY month
        ORDER BY sum(heads_impounded + heads_released + heads_sold) DESC, month DESC LIMIT 1
    """).fetchone()
    if row is None:
        raise PoundError("the database holds no monthly accounts")
    return row[0]
