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
# # Impoundment trends
#
# For analysts: how many cattle are impounded, where and of what kind; how often they are
# left unclaimed and sold; how long they stay; which owners come back; and how much of
# the fines due is collected. Every month from the first in the accounts up to and
# including the month of the report; cases are counted in the month they were impounded,
# and what became of them is as known on the date the accounts are drawn up to. The charts
# draw every month, a month with nothing impounded at zero; the tables, which count
# impoundments, have no row for such a month, so two rows one above the other need not be
# months that follow each other.

# %% tags=["parameters"]
db = None                     # the database of `pound run` / `pound build`; None: $POUND_DB, else the demo's
month = "2026-10"             # YYYY-MM: the last month shown
district = None               # None: every district

# %%
from IPython.display import display

from pipeline.reports import charts, trends
from pipeline.reports import html as h
from pipeline.reports.page import open_report, parameters_block

con, district, label = open_report(db, month, district)
months = trends.months_upto(con, month)

# %%
display(h.heading(f"{months[0]} to {month}" + (f", {district} district" if district else ", all districts"), 2))
parameters_block(con, db=db, month=month, district=district, report="Impoundment trends")

# %% [markdown]
# ## 1. Impoundments by month, pound and taluk
#
# Heads impounded each month, by pound and by taluk (a case may hold several heads).

# %%
h.figure_or_note(charts.impoundments(trends.impoundments_by(con, month, district, "pound_id", charts.SERIES_SHOWN),
                                    months, by="pound_id"), "Nothing was impounded.")

# %%
h.figure_or_note(charts.impoundments(trends.impoundments_by(con, month, district, "taluk", charts.SERIES_SHOWN),
                                    months, by="taluk"), "Nothing was impounded.")

# %% [markdown]
# ## 2. Impoundments by animal class
#
# Heads impounded each month, by animal class (the tables after this one count cases).

# %%
by_class = trends.impoundments_by_class(con, month, district)
h.figure_or_note(charts.impoundments_by_class(by_class, months))

# %%
h.pivot(by_class, "month", "animal_class", "heads", table_id="by-class", total_label="all classes",
        empty="Nothing was impounded.")

# %% [markdown]
# ## 3. Left unclaimed and sold
#
# Of the cases impounded each month, the share sold as unclaimed under s.15 (status
# `sold_unclaimed`) and the share with any head sold (s.15, or s.17 when the owner refused
# to pay).

# %%
outcomes = trends.outcomes_by_month(con, month, district)
h.figure_or_note(charts.outcome_shares(outcomes, months))

# %%
h.table(outcomes, table_id="outcomes", percent=["share_unclaimed", "share_sold"],
        labels={"sold_any": "any head sold", "share_unclaimed": "share unclaimed", "share_sold": "share sold"},
        empty="Nothing was impounded.")

# %% [markdown]
# ## 4. Time to release
#
# Days from impounding to the day the case closed (its last release or sale), for cases
# closed by the end of the month, by how they closed.

# %%
h.figure_or_note(charts.time_to_release(trends.time_to_close_drawn(con, month, district, charts.POINTS_SHOWN)))

# %%
h.table(trends.time_to_close_summary(con, month, district), table_id="time-to-release",
        labels={"median_days": "median days", "longest_days": "longest (days)"}, empty="No case was closed.")

# %% [markdown]
# ## 5. Repeat owners
#
# Owners with more than one case (cases without a known owner are left out).

# %%
repeat = trends.repeat_owners(con, month, district, first=h.MAX_ROWS)
h.figure_or_note(charts.repeat_owners(repeat))

# %%
h.table(repeat, table_id="repeat-owners", empty="No owner has more than one case.")

# %% [markdown]
# ## 6. Fines collected against fines due
#
# Fines due under s.10(1) for the cases impounded each month, against the fines of those
# cases collected by the date the accounts are drawn up to — paid at release, deducted from
# a sale and sent through the District Magistrate, or taken from a deposit under protest —
# which s.18(2) sends to the local fund. Whether the local fund's ledger shows them is for
# the reconciliation page: a fine collected here may be missing or short there. This is counted by the month of *impounding*; the
# monthly review counts the fines *received* in each month, so the two differ.

# %%
fines = trends.fines_due_vs_collected(con, month, district)
h.figure_or_note(charts.fines(fines, months))

# %%
h.table(fines, money=["fines_due", "fines_collected", "fines_not_collected"], table_id="fines", total="all",
        empty="Nothing was impounded.")

# %%
con.close()
