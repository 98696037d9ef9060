# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Exploring the pound accounts
#
# A starting point for analysts. Each question below is one short SQL query on the finished
# tables of the database (the models of `pipeline/sql/accounts`, `rules` and `marts`, never the
# raw registers), a chart, and a sentence on how to read it. Change the parameters, run the
# notebook again, and copy a cell to ask your own question (see the end).

# %% tags=["parameters"]
db = None             # the database of `pound run` / `pound build`; None: $POUND_DB, else the demo's
district = None       # None: every district
from_month = None     # YYYY-MM, the first month of impounding looked at; None: the first there is
to_month = None       # YYYY-MM, the last; None: the last there is

# %%
import plotly.express as px
import plotly.graph_objects as go

from pipeline.build import record
from pipeline.core import paths
from pipeline.read.database import check_district, connect
from pipeline.reports import charts
from pipeline.reports import html as h

charts.setup()        # figures drawn offline, in the reports' colours
con = connect(paths.database(db))     # read-only: nothing here can change the accounts
district = check_district(con, district)
scope = {"district": district, "first": from_month or "0000-00", "last": to_month or "9999-99"}
stale = record.stale_notice(con)     # files loaded after the figures were built, said at the top
h.parameters_table([("Database", str(paths.database(db))), ("District", district or "all districts"),
                    ("Months of impounding", f"{from_month or 'the first'} to {to_month or 'the last'}")],
                   [stale] if stale else [])

# %% [markdown]
# ## 1. Impoundments by month: year on year, and the seasons
#
# `impoundment_cohorts` has one row per month of impounding, pound and animal class. One line
# per year over the calendar months shows both at once: the gap between the lines is the
# change on the year before, and their common shape is the season (the monsoon peak). A
# month with nothing impounded, between the first and the last that had some, is drawn at
# zero, not left out.

# %%
by_month = con.execute("""
    SELECT left(month, 4) AS year, right(month, 2) AS calendar_month, sum(heads) AS heads, sum(cases) AS cases
    FROM (SELECT month, heads, cases FROM impoundment_cohorts
          WHERE ($district IS NULL OR district = $district) AND month BETWEEN $first AND $last
          UNION ALL          -- every month from the first to the last, at zero
          SELECT strftime(unnest(generate_series(strptime(min(month), '%Y-%m'), strptime(max(month), '%Y-%m'),
                                                 INTERVAL 1 MONTH)), '%Y-%m'), 0, 0
          FROM impoundment_cohorts
          WHERE ($district IS NULL OR district = $district) AND month BETWEEN $first AND $last)
    GROUP BY ALL ORDER BY year, calendar_month""", scope).df()
# every month of the period, named on the bar charts' axes below too: a month with nothing is there, at zero
months = sorted(set(by_month.year + "-" + by_month.calendar_month))
px.line(by_month, x="calendar_month", y="heads", color="year", markers=True,
        title="Heads impounded by calendar month, one line per year",
        labels={"calendar_month": "month", "heads": "heads impounded"}).update_xaxes(type="category")

# %% [markdown]
# ## 2. By taluk, pound and animal class
#
# Click a taluk or a pound to open it; the size of each piece is the heads impounded.

# %%
by_place = con.execute("""
    SELECT taluk, pound_name, animal_class, sum(heads) AS heads
    FROM impoundment_cohorts
    WHERE ($district IS NULL OR district = $district) AND month BETWEEN $first AND $last
    GROUP BY ALL ORDER BY ALL""", scope).df()
# names written level in their rings (a name turned round its ring prints as shreds of letters)
h.figure_or_note(px.sunburst(by_place, path=["taluk", "pound_name", "animal_class"], values="heads",
                             title="Heads impounded by taluk, pound and class")
                 .update_traces(insidetextorientation="horizontal") if len(by_place) else None,
                 "Nothing was impounded in these months.")

# %% [markdown]
# ## 3. What became of the cases: claimed, sold, still held
#
# `case_accounts.status` says how each case stood on the date the accounts are drawn up to:
# released to the owner (on payment, under protest or by a court), sold, or still in the pound.

# %%
outcomes = con.execute("""
    SELECT impounded_month AS month, status, count(*) AS cases
    FROM case_accounts
    WHERE ($district IS NULL OR district = $district) AND impounded_month BETWEEN $first AND $last
    GROUP BY ALL ORDER BY ALL""", scope).df()
px.bar(outcomes.assign(status=outcomes.status.str.replace("_", " ")), x="month", y="cases", color="status",
       title="Share of the cases impounded each month, by what became of them",
       labels={"cases": "share of the month's cases (%)", "month": "month impounded", "status": "what became of it"}
       ).update_layout(barnorm="percent").update_xaxes(type="category", categoryorder="array", categoryarray=months)

# %% [markdown]
# ## 4. Time to release
#
# Days from impounding to the day the case closed (its last release or sale), for the cases
# that have closed: the box is the middle half of the cases, the line in it the median, the
# whiskers the shortest and the longest. The query sums the cases up (quartiles by status), so
# it stays small however many cases there are.

# %%
closed = con.execute("""
    SELECT status, count(*) AS cases, min(days_to_close) AS shortest, quantile_cont(days_to_close, 0.25) AS q1,
           quantile_cont(days_to_close, 0.5) AS median, quantile_cont(days_to_close, 0.75) AS q3,
           max(days_to_close) AS longest
    FROM case_accounts
    WHERE closed_on IS NOT NULL AND ($district IS NULL OR district = $district)
      AND impounded_month BETWEEN $first AND $last
    GROUP BY status ORDER BY cases DESC, status""", scope).df()
h.figure_or_note(go.Figure(go.Box(x=closed.status.str.replace("_", " "), q1=closed.q1, median=closed["median"], q3=closed.q3,
                                  lowerfence=closed.shortest, upperfence=closed.longest, name="days"))
                 .update_layout(title="Days from impounding to closing, by how the case closed", yaxis_title="days")
                 .update_xaxes(tickangle=0, automargin=True)
                 if len(closed) else None, "No case has closed.")

# %% [markdown]
# ## 5. Repeat owners
#
# Owners with more than one case (cases without a known owner are left out), most cases first.

# %%
repeat = con.execute("""
    SELECT owner_id || ' ' || any_value(owner_name) AS owner, count(*) AS cases, sum(head_count) AS heads,
           count(DISTINCT pound_id) AS pounds
    FROM case_accounts
    WHERE owner_id IS NOT NULL AND ($district IS NULL OR district = $district)
      AND impounded_month BETWEEN $first AND $last
    GROUP BY owner_id HAVING count(*) > 1 ORDER BY cases DESC, owner LIMIT 20""", scope).df()
h.figure_or_note(px.bar(repeat, y="owner", x="cases", hover_data=["heads", "pounds"], orientation="h",
                        title="Owners with more than one case").update_yaxes(automargin=True) if len(repeat) else None,
                 "No owner has more than one case in these months.")

# %% [markdown]
# ## 6. Sale prices per head, by class and year
#
# `sale_prices` gives the accepted bids per head sold (s.15(3), s.17(2)) by the year of sale;
# a class that fetches less than its fines and feeding charges leaves dues unrecovered.
# Money is kept in paise; it is divided by 100 here only to draw it in rupees, and the amount
# shown on hovering is written from the paise, as the reports write it.

# %%
prices = con.execute("""
    SELECT sale_year::VARCHAR AS year, district, animal_class, proceeds_per_head, heads_sold
    FROM sale_prices
    WHERE ($district IS NULL OR district = $district) AND sale_year BETWEEN left($first, 4)::INT AND left($last, 4)::INT
    ORDER BY ALL""", scope).df()
h.figure_or_note(px.bar(prices.assign(rupees_per_head=prices.proceeds_per_head / 100,
                                      per_head=prices.proceeds_per_head.map(h.rupees)),
                        x="year", y="rupees_per_head", color="animal_class", barmode="group", facet_col="district",
                        hover_data={"per_head": True, "heads_sold": True, "rupees_per_head": False},
                        labels={"per_head": "Rs per head", "rupees_per_head": "rupees per head", "year": "year sold",
                                "animal_class": "animal class", "heads_sold": "heads sold", "district": "district"},
                        title="Sale proceeds per head sold (Rs)") if len(prices) else None,
                 "Nothing was sold in these years.")

# %% [markdown]
# ## 7. Fines and charges: due against collected
#
# For the cases impounded each month: fines due under s.10(1) against those collected (which
# s.18(2) sends to the local fund; whether its ledger shows them is the reconciliation's
# question), and feeding charges due against those paid to the pound-keeper (s.18(3)), by the
# date the accounts are drawn up to. The charges due include those still building up on cattle
# in the pound on that date, which nobody has yet had to pay, so in the last months due stands
# above collected even where nothing is overdue. These are counted by the month of impounding;
# the monthly review counts the money *received* in each month, so the two differ.

# %%
dues = con.execute("""
    SELECT month, sum(fines_due) AS fines_due, sum(fines_collected) AS fines_collected,
           sum(charges_due) AS charges_due, sum(charges_collected) AS charges_collected
    FROM impoundment_cohorts
    WHERE ($district IS NULL OR district = $district) AND month BETWEEN $first AND $last
    GROUP BY month ORDER BY month""", scope).df()
long = dues.melt(id_vars="month", var_name="figure", value_name="paise")
long["figure"] = long.figure.map({"fines_due": "fines due", "fines_collected": "fines collected",
                                  "charges_due": "feeding charges due", "charges_collected": "feeding charges collected"})
px.bar(long.assign(rupees=long.paise / 100, amount=long.paise.map(h.rupees)), x="month", y="rupees", color="figure",
       barmode="group", hover_data={"amount": True, "rupees": False},
       labels={"amount": "Rs", "rupees": "rupees", "month": "month impounded", "figure": ""},
       title="Fines and feeding charges, due and collected (Rs)"
       ).update_xaxes(type="category", categoryorder="array", categoryarray=months)

# %% [markdown]
# ## 8. Deadlines missed, by pound
#
# `deadlines_missed` lists the findings of a statutory time limit that ran out with its step
# not taken (the s.15(1) report to the police, the s.15(3) auction, the s.16(2) follow-up of
# a protest), by the month the limit ran out. Steps for which the Act sets no day, such as the
# s.15(2) notice and proclamation (whose days of grace are this office's reading), are not
# counted here: their findings are on the monthly review.

# %%
missed = con.execute("""
    SELECT pound_id, deadline, count(*) AS missed
    FROM deadlines_missed
    WHERE ($district IS NULL OR district = $district) AND month BETWEEN $first AND $last
    GROUP BY ALL ORDER BY ALL""", scope).df()
h.figure_or_note(px.bar(missed, x="pound_id", y="missed", color="deadline", title="Deadlines missed, by pound",
                        labels={"pound_id": "pound", "missed": "deadlines missed"})
                 if len(missed) else None,
                 "No report to the police, auction or follow-up of a protest ran past its time limit in these "
                 "months (the other findings are on the monthly review).")

# %% [markdown]
# ## Your own question
#
# Every finished table can be queried the same way: `con.execute(SQL, scope).df()` gives a
# pandas DataFrame, and `$district`, `$first` and `$last` are the parameters above. The tables
# worth starting from: `case_accounts` (one row per case), `fund_movements` (where each rupee
# had to go, with its section), `findings` (one row per finding), `reconciliation`,
# `monthly_accounts`, `impoundment_cohorts`, `sale_prices`, `deadlines_missed`. Money columns
# are integer paise: divide by 100 only to draw. To list a table's columns:
# `con.execute("DESCRIBE case_accounts").df()`. The connection is read-only, so nothing you
# run here can change the accounts. For other tools, `pound export` writes every table as
# Parquet or CSV.

# %%
con.close()
