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
# # Monthly accounts review
#
# For the District Magistrate: what happened at each pound in the month under the
# Karnataka Cattle Trespass Act 1966, Chapter IV — cattle in and out, money received
# and where the Act sends it, what the checks found, and the cases that reach a
# statutory deadline in the days after the month ends.

# %% tags=["parameters"]
db = "../demo/pound.duckdb"   # the database written by `pound run` / `pound build`
month = "2026-10"             # YYYY-MM
district = None               # None: every district

# %%
from IPython.display import display

from pipeline.reports import charts
from pipeline import reports as r

con, district, label = r.open_report(db, month, district)

# %%
display(r.heading(f"{label}" + (f", {district} district" if district else ", all districts"), 2))
r.parameters_block(con, db=db, month=month, district=district, report="Monthly accounts review")

# %%
roll = r.rollforward(con, month, district)
received = r.money_received(con, month, district)
findings = r.findings_in_month(con, month, district)
due = r.deadlines(con, month, district)
if not r.month_has_activity(con, month, district):
    display(r.note(f"Nothing was impounded, released, sold, paid or found in {label}.", "warn"))
r.review_key_figures(roll, received, findings, due)

# %% [markdown]
# ## 1. Cattle in the pounds: the month's roll-forward
#
# Heads at the start of the month, plus those impounded, less those released (s.12, s.16,
# court orders) and sold (s.15, s.17), give the heads at the end. "ties" says the
# roll-forward adds up.

# %%
r.table(roll, table_id="rollforward", total="all pounds",
        labels={"heads_start": "at the start", "heads_impounded": "impounded", "heads_released": "released",
                "heads_sold": "sold", "heads_end": "at the end", "cases_impounded": "cases impounded"},
        empty=f"No pound has accounts for {label}.")

# %%
r.figure_or_note(charts.rollforward(roll, label))

# %% [markdown]
# ## 2. Money received and where it went
#
# Every rupee received in the month (paid at a pound or by a buyer at an auction), by the
# section of the Act that says where it must go. Fines go to the local fund (s.18(2)),
# feeding charges to the pound-keeper (s.18(3)), security is held under s.18(4), and the
# surplus of an unclaimed sale is deposited with the District Magistrate (s.18(5)).

# %%
r.table(received, money=["amount"], table_id="money-received", total="total received",
        labels={"to": "goes to", "from": "received from", "account": "account"},
        empty=f"No money was received in {label}.")

# %%
r.figure_or_note(charts.money_received(received, label))

# %% [markdown]
# Money already held that had to be passed on in the month: fines from sales credited by
# the District Magistrate to the local fund, deposits under protest taken as fines and
# charges, security refunded or forfeited, unclaimed surplus credited after six months.

# %%
r.table(r.money_passed_on(con, month, district), money=["amount"], table_id="money-passed-on",
        total="total passed on", labels={"to": "goes to", "from": "held as"},
        empty=f"Nothing held had to be passed on in {label}.")

# %% [markdown]
# ### Sales of the month and where the proceeds went
#
# The proceeds pay, in order, the expenses of the sale, feeding charges, fines and (s.17
# only) security; what remains goes to the owner (s.17(3)) or, for unclaimed cattle, to
# the District Magistrate (s.18(5)).

# %%
r.table(r.sales_in_month(con, month, district), money=r.SALE_MONEY, table_id="sales",
        empty=f"No cattle were sold in {label}.")

# %% [markdown]
# ### Money by pound

# %%
r.money_by_pound_table(con, month, district)

# %% [markdown]
# ## 3. Findings of the month, high severity first
#
# Each finding names the section of the Act it is checked against and what the
# registers show.

# %%
r.table(findings, table_id="findings", row_class="severity", empty=f"No findings for {label}.")

# %%
r.figure_or_note(charts.findings_by_rule(findings, label))

# %% [markdown]
# ## 4. Cases reaching a statutory deadline after the month
#
# Cases pending at the end of the month that reach one of these deadlines within the
# `deadline_horizon` days that follow (a parameter, 7 days unless changed), where the step
# it calls for had not been taken by the end of the month:
#
# | deadline | day | section |
# |---|---|---|
# | claim window ends | impounded on D: D + 7 (D + 3 for asses and sheep) | 15(1) |
# | report to the police due | D + 7 + 1 (+ report_grace) | 15(1) |
# | auction allowed from | notice on N: N + 7 + 1 | 15(3) |
# | auction overdue after | N + 7 + 1 + sale_grace | 15(3) |
# | complaint window ends | delivered under protest on R: R + 28 | 16(2) |

# %%
r.table(due, table_id="deadlines", labels={"days_after_month_end": "days after month end"},
        empty=f"No pending case reaches a deadline in the {r.parameter(con, 'deadline_horizon', 7)} days after {label}.")

# %%
con.close()
