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
# # Local fund reconciliation
#
# For auditors: what each local fund, and the District Magistrate's deposit, should have
# received under s.18 of the Karnataka Cattle Trespass Act 1966, against what their
# ledgers record. Expected credits are keyed by local authority, reference (the case) and
# head (`fines` under s.18(2), `surplus` under s.18(5)); ledger entries with the same key
# are added up.
#
# The reconciliation is the state of the ledgers on the date the accounts are drawn up
# to: a break stays listed until it is put right, whatever month the report is for. The
# month's own items are listed in section 5.

# %% tags=["parameters"]
db = "../demo/pound.duckdb"   # the database written by `pound run` / `pound build`
month = "2026-10"             # YYYY-MM
district = None               # None: every district

# %%
from IPython.display import display

from pipeline.reports import charts
from pipeline import reports as r

con, district, label = r.open_report(db, month, district)
rows = r.reconciliation_rows(con, district)

# %%
display(r.heading(f"{label}" + (f", {district} district" if district else ", all districts"), 2))
r.parameters_block(con, db=db, month=month, district=district, report="Local fund reconciliation")

# %% [markdown]
# ## 1. Expected against credited, per local authority
#
# | status | meaning (lag: `reconciliation_lag`, 30 days unless changed) |
# |---|---|
# | matched | the same amount, entered within the lag after it was due |
# | late | the same amount, entered after the lag |
# | early | unclaimed surplus credited before the District Magistrate's six months ran out |
# | amount_mismatch | an entry with the same key and another amount |
# | missing | nothing entered, and the lag has run out |
# | pending | nothing entered yet, the lag has not run out |
# | unexpected | an entry that no movement under the Act explains |

# %%
by_la = r.reconciliation_by_authority(con, district)
r.table(by_la, money=["expected", "credited", "difference"], table_id="by-authority",
        labels={"amount_mismatch": "amount mismatch"}, empty="The reconciliation has no rows.")

# %%
r.figure_or_note(charts.reconciliation_by_authority(by_la))

# %%
r.figure_or_note(charts.reconciliation_status(rows))

# %% [markdown]
# ## 2. Totals that tie
#
# For each ledger, the expected credits are the sum of what was matched, late, early,
# mismatched (the amount expected), missing and pending; the credits in the ledger are the
# sum of what was matched, late, early, mismatched (the amount entered) and unexpected. Each
# total is also taken straight from the reconciliation, and the two must agree.

# %%
r.totals_html(con, district)

# %% [markdown]
# ## 3. Every break
#
# Every row whose status is not `matched`: amount mismatches, missing credits and
# unexpected entries first, then credits that came late or early, then those still
# pending. The difference is the ledger amount less the expected amount.

# %%
r.table(r.reconciliation_breaks(rows), money=["expected_amount", "ledger_amount", "difference"],
        table_id="breaks", row_class="row_class", labels={"ledger_amount": "in the ledger"},
        empty="No breaks: every expected credit is matched.")

# %% [markdown]
# ## 4. Ageing of what is missing
#
# Missing credits by the days they have been outstanding since they were due, on the date
# the accounts are drawn up to.

# %%
aged = r.ageing(rows)
r.table(aged, money=["amount", "local_fund", "dm_deposit"], table_id="ageing", total="total missing",
        labels={"days_outstanding": "days outstanding", "local_fund": "of which local funds",
                "dm_deposit": "of which the DM's deposit"})

# %%
r.figure_or_note(charts.ageing(aged), "Nothing is missing.")

# %% [markdown]
# ## 5. Items of the month
#
# Expected credits due in the month, and ledger entries made in it.

# %%
r.table(r.reconciliation_in_month(rows, month), money=["expected_amount", "ledger_amount", "difference"],
        table_id="month-items", row_class="row_class", labels={"ledger_amount": "in the ledger"},
        empty=f"No credit was due, and no entry was made, in {label}.")

# %%
con.close()
