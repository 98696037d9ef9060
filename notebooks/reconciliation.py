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
# to: sections 1, 3, 4 and 5 list every credit and entry up to that date, whatever month or
# period the report is for, so a break stays listed until it is put right. The period's own
# figures are its balances (section 2b; `pound workbook` writes them again, for one local
# authority's period, on the sheet "balances" of its workbook, which the run's
# audit_workbook.xlsx does not have), and the
# month's own items are listed in section 6.

# %% tags=["parameters"]
db = None                     # the database of `pound run` / `pound build`; None: $POUND_DB, else the demo's
month = "2026-10"             # YYYY-MM
district = None               # None: every district
local_authority = None        # None: every local authority (corrections, section 7, are by district)
period_from = None            # YYYY-MM-DD: the period of section 2b's balances (None: the month)
period_to = None              # YYYY-MM-DD

# %%
from IPython.display import display

from pipeline.read import reconciliation as rec
from pipeline.read.balances import period_balances
from pipeline.read.database import as_of
from pipeline.reports import charts, review
from pipeline.reports import html as h
from pipeline.reports.page import balances_html, open_report, parameters_block, report_scope
from pipeline.reports.ties import ties_html

con, district, label = open_report(db, month, district)
local_authority, scope = report_scope(con, month, district, local_authority, period_from, period_to)

# %%
display(h.heading(f"{label}" + (f", {district} district" if district else ", all districts")
                  + (f", local authority {local_authority}" if local_authority else ""), 2))
parameters_block(con, db=db, month=month, district=district, report="Local fund reconciliation", period=scope)

# %% [markdown]
# ## 1. Expected against credited, per local authority and head
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
#
# A *break* is a row an auditor must take up: every status but `matched` and `pending`
# (a pending credit is not yet late). The District Magistrate's deposit is shown by head:
# what he had to receive (`receipt`), and what he credited on to the local funds. In a row of
# what he credited on (`credit_to_local_fund`), the *due* day is the day his own ledger gives
# for the credit (his entries are named under *the DM's own entries*), the *entry* is the
# local fund's `surplus` entry that shows it arrived, and *early* means he passed it on before
# his six months ran out (the local fund's own `surplus` row for the case then says early
# too). The difference counts every expected credit, pending ones too; *of which on credits
# already due* leaves out those not due yet (pending), so it is what the ledgers are short or
# over today. In the chart of statuses a bar adds up amounts of one kind only: the District
# Magistrate's receipts and what he passed on are separate bars, and the entries nothing was
# due for are a bar of their own, beside the expected credits of their ledger.

# %%
by_la = rec.by_authority(con, district, local_authority=local_authority)
h.table(by_la, money=["expected", "credited", "difference", "difference_due"], table_id="by-authority",
        essential=["ledger", "head", "local_authority_name", "expected", "credited", "difference", "breaks", "missing",
                   "unexpected"],
        labels={"local_authority_name": "local authority", "amount_mismatch": "amount mismatch",
                "difference": "credited - expected", "difference_due": "of which on credits already due"},
        value_labels={"head": rec.HEAD_LABELS}, empty="The reconciliation has no rows.")

# %%
h.figure_or_note(charts.reconciliation_by_authority(by_la))

# %%
h.figure_or_note(charts.reconciliation_status(rec.status_by_authority(con, district, local_authority=local_authority)))

# %% [markdown]
# ## 2. What the District Magistrate holds in deposit
#
# Unclaimed surplus is held by the District Magistrate for six months and then credited to
# the local fund (s.18(5)). *Should hold* is the surplus he had to receive less what had
# to pass to the local fund by the date the accounts are drawn up to; *holds by his
# ledger* is his receipts less his credits to local funds and his refunds to claimants.
# Below zero, *ledger - should hold* is money his ledger does not hold though it should:
# a receipt not entered (sections 4 and 5), or a credit to a local fund or a refund made before
# it fell due (section 4 lists such a credit as `early`). Above zero, he holds money he
# should have passed on or refunded, or a receipt nothing was due for.

# %%
h.table(rec.dm_deposit_held(con, district, local_authority=local_authority), table_id="dm-deposit-held",
        money=["surplus_received_due", "surplus_credit_due", "held_due", "receipts_booked", "credits_booked",
               "refunds_booked", "held_booked", "held_difference"],
        labels={"local_authority_name": "local authority", "surplus_received_due": "surplus to receive",
                "surplus_credit_due": "of which due to the local fund", "held_due": "should hold",
                "receipts_booked": "receipts in his ledger", "credits_booked": "credits to local funds",
                "refunds_booked": "refunds to claimants", "held_booked": "holds by his ledger",
                "held_difference": "ledger - should hold"},
        total="all", empty="No surplus was sent to the District Magistrate.")

# %% [markdown]
# ## 2b. Balances of the period
#
# For each local fund and the District Magistrate's deposit: what was due but not credited
# at the start of the period, what fell due in it (by the day due) and what was credited in
# it (by the day entered: for dues of the period, for earlier dues, or for neither), and what
# was due but not credited at its end. Opening + due - credited = closing, checked on every
# row. For the deposit, what his ledger shows he held at the start and at the end (receipts
# less credits to local funds less refunds), and what he should have held by s.18(5).
#
# A credit for neither (an entry nothing was due for, such as lease rent) counts as credited,
# so it lowers the closing, as it raises the reconciliation's total difference (ledger less
# expected). The closing is one net figure, so its two parts stand beside it: what is *missing*
# at the end (dues not paid by the credits made for them) and what was credited *unexpected*
# (for nothing due by then); closing = missing - unexpected. Below zero, more was credited in all
# than was due, and a due can still be missing. Section 4 lists both: the entries nothing was due
# for (status `unexpected`) and the credits still missing.

# %%
display(*balances_html(period_balances(con, scope), scope, as_of(con)))

# %% [markdown]
# ## 3. Totals that tie
#
# For each ledger, the expected credits are the sum of what was matched, late, early,
# mismatched (the amount expected), missing and pending; the credits in the ledger are the
# sum of what was matched, late, early, mismatched (the amount entered) and unexpected. Each
# total is also taken straight from the reconciliation, and the two must agree. The District
# Magistrate's deposit is tied head by head: what he had to receive and what he credited on to
# the local funds are never added together.

# %%
ties_html(con, district, local_authority=local_authority)

# %% [markdown]
# ## 4. Every break
#
# Amount mismatches, missing credits and unexpected entries first, then credits that came
# late or early. The difference is the ledger amount less the expected amount. Credits
# not yet due (pending) follow, for information.
#
# The District Magistrate's credits to local funds are checked from his own ledger: on
# the rows of surplus credited by the DM to the local fund, the expected amount and the
# day due are his own entries', the local fund's entries are matched against them, and
# `early` says the credit came before the six months of s.18(5) were over, whatever the
# days after due say; that too is a finding for the District Magistrate's decision
# (DM-SURPLUS-CREDITED-EARLY), named in the column "early finding" beside its row.
#
# A credit or a DM's receipt not made in full more than `ledger_grace` days after its due
# day is also a finding for the District Magistrate's decision (LF-CREDIT-OVERDUE,
# DM-RECEIPT-OVERDUE): the column "finding" names it beside its row, on screen and on paper
# (the difference, the ledger less the expected amount, is a click away on screen).

# %%
h.table(rec.breaks(con, district, local_authority=local_authority, first=h.MAX_ROWS),
        money=["expected_amount", "ledger_amount", "difference"], table_id="breaks", row_class="status",
        essential=["local_authority_id", "reference", "head", "status", "overdue_rule", "expected_amount",
                   "ledger_amount", "due_on", "days_outstanding"],
        labels={"ledger_amount": "in the ledger", "entry_ids": "entries", "expected_from": "the DM's own entries",
                "overdue_rule": "finding", "early_rule": "early finding", "days_outstanding": "days since due"},
        value_labels={"ledger": rec.LEDGER_NAMES, "head": rec.HEAD_LABELS},
        empty="No breaks: every expected credit that is due is matched.")

# %%
h.table(rec.pending(con, district, local_authority=local_authority, first=h.MAX_ROWS),
        money=["expected_amount", "difference"], table_id="pending",
        essential=["ledger", "local_authority_id", "reference", "head", "expected_amount", "due_on", "days_outstanding"],
        labels={"days_outstanding": "days since due (less than 0: due in so many days)"},
        value_labels={"ledger": rec.LEDGER_NAMES, "head": rec.HEAD_LABELS}, empty="No credit is pending.")

# %% [markdown]
# ## 5. Ageing of what is missing
#
# Missing credits by the days they have been outstanding since they were due, on the date
# the accounts are drawn up to.

# %%
aged = rec.ageing(con, district, local_authority=local_authority)
h.table(aged, money=["amount", "local_fund", "dm_deposit"], table_id="ageing", total="total missing",
        hide=["ageing_band"],
        labels={"ageing": "days outstanding", "local_fund": "of which local funds",
                "dm_deposit": "of which the DM's deposit"}, empty="Nothing is missing.")

# %%
h.figure_or_note(charts.ageing(aged), "Nothing is missing.")

# %% [markdown]
# ## 6. Items of the month
#
# Expected credits due in the month, and ledger entries made in it. This is wider than what the
# month's close keeps: a close keeps the rows whose period is the month (due in it, or, for an
# entry nothing was due for, made in it), so an entry made this month for a credit due earlier is
# listed here but belongs to the earlier month's close.

# %%
h.table(rec.in_month(con, month, district, local_authority=local_authority, first=h.MAX_ROWS),
        money=["expected_amount", "ledger_amount", "difference"], table_id="month-items", row_class="status",
        essential=["local_authority_id", "reference", "head", "status", "expected_amount", "ledger_amount",
                   "difference", "due_on", "entry_on"],
        labels={"ledger_amount": "in the ledger"}, value_labels={"ledger": rec.LEDGER_NAMES, "head": rec.HEAD_LABELS},
        empty=f"No credit was due, and no entry was made, in {label}.")

# %% [markdown]
# ## 7. Corrections of the month
#
# Every correction of a register or ledger row dated in the month: the field, what it was,
# what it is now, why, and the file and row it came in.

# %%
h.table(rec.corrections_of(con, month, district), table_id="corrections",
        empty=f"No register or ledger row of {label} was corrected.")

# %% [markdown]
# ## 8. Changes to closed months
#
# Figures of months the District Magistrate closed that have moved since their close, and why.

# %%
h.table(review.changes_to_closed_months(con, month, district, local_authority), table_id="adjustments",
        labels=review.ADJUSTMENT_LABELS, value_labels={"measure": review.MEASURE_WORDS},
        empty="No figure of a closed month has moved since its close.")

# %%
con.close()
