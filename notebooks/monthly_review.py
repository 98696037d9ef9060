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
db = None                     # the database of `pound run` / `pound build`; None: $POUND_DB, else the demo's
month = "2026-10"             # YYYY-MM
district = None               # None: every district
sealing = None                # set by `pound close` in the copy it seals: who closes the month, and when
sealed_id = None              # set by `pound close` in the copy it seals: the close's figures id

# %%
from IPython.display import display

from pipeline.reports import charts, glance, review
from pipeline.reports import html as h
from pipeline.reports.page import closed_text, open_report, parameters_block

con, district, label = open_report(db, month, district)

# %%
if not review.has_activity(con, month, district):
    display(h.note(f"Nothing was impounded, released, sold, paid or found in {label}.", "warn"))
days = review.horizon(con)
closed = closed_text(con, month, district, sealing)
glance.page(con, month, label, district, closed, sealed_id)

# %%
display(h.heading("What this review was drawn from", 2))
parameters_block(con, db=db, month=month, district=district, report="Monthly accounts review", closing=True,
                 sealing=closed)

# %% [markdown]
# ## 1. Cattle in the pounds: the month's roll-forward
#
# Heads at the start of the month, plus those impounded (among them any seized again under
# s.16(2), each a case of its own), less those released (s.12, s.16, court orders, and the heads
# a s.17 sale left unsold, delivered back to the owner under s.17(3)), sold (s.15, s.17) and
# disposed of after a rejected bid (s.15(3) proviso), give the heads at the end. "ties" says the
# roll-forward adds up.

# %%
roll = review.rollforward(con, month, district)
h.table(roll, table_id="rollforward", total="all pounds",
        labels={"pound_name": "pound", "heads_start": "heads at the start", "heads_impounded": "heads impounded",
                "heads_reseized": "of which seized again", "heads_released": "heads released", "heads_sold": "heads sold",
                "heads_disposed": "heads disposed of", "heads_end": "heads at the end",
                "cases_impounded": "cases impounded", "rollforward_ties": "ties"},
        empty=f"No pound has accounts for {label}.")

# %%
h.figure_or_note(charts.rollforward(roll, label))

# %% [markdown]
# ## 2. Money received and where it went
#
# Every rupee received in the month (paid at a pound or by a buyer at an auction), by the
# section of the Act that says where it must go. Fines go to the local fund (s.18(2)),
# feeding charges to the pound-keeper (s.18(3)), security is held under s.18(4), and the
# surplus of an unclaimed sale is deposited with the District Magistrate (s.18(5)). A fine a
# Tahsildar imposes under s.14(3) is paid at no pound, and the Act does not say where it
# goes: it is shown going to the State Government (a reading of this office), and is in no
# pound's column of the money by pound below.

# %%
received = review.money_received(con, month, district)
h.table(received, money=["amount"], table_id="money-received", total="total received",
        labels={"from_account": "received from", "account": "goes to"},
        value_labels={"from_account": review.ACCOUNT_LABELS, "account": review.ACCOUNT_LABELS},
        empty=f"No money was received in {label}.")

# %%
h.figure_or_note(charts.money_received(received, label, review.ACCOUNT_LABELS))

# %% [markdown]
# Money already held that had to be passed on in the month: fines from sales credited by
# the District Magistrate to the local fund, deposits under protest taken as fines and
# charges, security refunded or forfeited, unclaimed surplus credited after six months.
# These are what the Act required to move, not what the ledgers show was moved: the
# reconciliation report sets them against the ledgers.

# %%
h.table(review.money_passed_on(con, month, district), money=["amount"], table_id="money-passed-on",
        total="total to be passed on", labels={"from_account": "held as", "account": "goes to"},
        value_labels={"from_account": review.ACCOUNT_LABELS, "account": review.ACCOUNT_LABELS},
        empty=f"Nothing held had to be passed on in {label}.")

# %% [markdown]
# ### Sales completed in the month and where the proceeds went
#
# The proceeds pay, in order, the expenses of the sale (of every auction of the case,
# including bids rejected earlier), feeding charges, fines and (s.17 only) security; what
# remains goes to the owner (s.17(3)) or, for unclaimed cattle, to the District Magistrate
# (s.18(5)). The Act lists these deductions for a sale under s.17(2), and s.18(1) sends the
# fines deducted under it to the District Magistrate; it lists none for a sale of unclaimed
# cattle under s.15, whose proceeds are divided the same way here, with the same sections
# cited (a reading of this office, set out in its design notes).

# %%
h.table(review.sales_in_month(con, month, district, first=h.MAX_ROWS), money=review.SALE_MONEY, table_id="sales",
        essential=["case_id", "last_sale_id", "sold_on", "head_sold", "sale_proceeds", "sale_expenses",
                   "sale_paid_feeding", "sale_paid_fines", "balance_to_owner", "surplus_unclaimed"],
        labels={"last_sale_id": "sale", "s17_sale": "sale under", "sale_expenses": "expenses of sale",
                "sale_paid_feeding": "feeding", "sale_paid_fines": "fines", "sale_paid_security": "security",
                "sale_paid_feeding_overdue": "feeding overdue",
                "surplus_unclaimed": "surplus to the DM"},
        value_labels={"s17_sale": {True: "s.17 (owner refused to pay)", False: "s.15 (unclaimed)"}},
        empty=f"No sale was completed in {label}.")

# %% [markdown]
# ### Money by pound (rupees)
#
# Two figures for the expenses of sale are kept apart. *Expenses deducted* are what the
# proceeds of the sales completed in the month paid towards expenses: they include the
# expenses of earlier auctions of the same cattle whose bids were rejected (s.15(3)), and
# they are what the money and sales tables above show. *Expenses of the auctions held in
# the month* count each auction in the month it was held, accepted or not. The fines here
# are those *received* in the month; the trends report counts instead the fines collected
# for the cases *impounded* in each month, whenever they were paid.

# %%
h.transposed(review.money_by_pound(con, month, district), review.MONEY_BY_POUND, "pound_id",
             table_id="money-by-pound", total_label="all pounds", empty=f"No pound has accounts for {label}.")

# %% [markdown]
# ## 3. Findings of the month: open ones first, high severity first
#
# Each finding names the section of the Act it is checked against and what the
# registers show. *Open* means no decision has been recorded on it (or it was reopened);
# the District Magistrate's office records decisions in `registers/finding_reviews.csv`,
# for instance by filling in the `review_<month>.xlsx` that `pound report` writes beside
# these pages.

# %%
findings = review.findings_in_month(con, month, district)
h.table(findings, table_id="findings", row_class="severity", empty=f"No findings for {label}.",
        essential=["review_status", "severity", "rule_id", "section", "subject_id", "event_on", "days_open", "detail",
                   "review_note"],
        labels={"review_status": "decision", "days_open": "days open", "review_note": "note on the decision"})

# %% [markdown]
# Every finding up to this month still waiting for a decision on the date the accounts are
# drawn up to, by how long it has waited; and the decisions recorded so far.

# %%
display(h.table(review.open_findings_by_age(con, month, district), table_id="open-by-age",
                labels={"open_age": "waiting", "high": "of which high severity", "longest_days": "longest (days)"},
                total="all open", empty="Every finding up to this month has a decision."))
display(*review.open_after(con, month, label, district))

# %% [markdown]
# Below, the findings of earlier months that are still open (counted in the table above): the
# table of this month's findings does not list them. Each is in this month's review workbook
# too, for a decision.

# %%
h.table(review.open_from_earlier_months(con, month, district, first=h.MAX_ROWS), table_id="open-earlier",
        essential=["month", "severity", "rule_id", "section", "subject_id", "event_on", "days_open", "detail"],
        row_class="severity", labels={"days_open": "days open"},
        empty="No finding of an earlier month is waiting for a decision.")

# %% [markdown]
# Findings reopened: a decision was recorded on each, but a correction loaded since has moved
# the figures it was made on. The finding is open again (counted above, and in this month's
# review workbook) for a fresh decision; the earlier one stays in `finding_reviews.csv`.

# %%
h.table(review.reopened_findings(con, month, district), table_id="reopened", row_class="severity",
        labels={"reviewed_on": "decided on", "review_note": "note on that decision"},
        empty="No decision has been overtaken by a correction.")

# %%
h.table(review.decided_findings(con, month, district), table_id="decided", total="all decided",
        labels={"review_status": "decision", "high": "of which high severity"},
        empty="No decision has been recorded yet.")

# %% [markdown]
# Decisions recorded that name no finding the accounts raise: the rule and subject as typed in
# `finding_reviews` match nothing (a mistyped id, say), or the finding is no longer raised after
# a correction. Such a decision settles nothing: check the id, and record it again if it was
# meant for a finding still open.

# %%
h.table(review.decisions_naming_no_finding(con, month), table_id="decisions-unmatched",
        labels={"reviewed_on": "recorded on", "subject_id": "subject", "source": "register row"},
        empty="Every decision recorded names a finding the accounts raise.")

# %%
h.figure_or_note(charts.findings_by_rule(review.findings_by_rule(con, month, district), label))

# %% [markdown]
# ## 4. Cases reaching a statutory deadline after the month
#
# Cases pending at the end of the month that reach one of these deadlines within the
# `deadline_horizon` days that follow (a parameter, 7 days unless changed), where the step
# it calls for had not been taken by the end of the month. The days are those of the
# readings this database was built with:

# %%
h.table(review.deadline_kinds(con), table_id="deadline-kinds", labels={"day": "falls on", "note": "what it means"})

# %% [markdown]
# The cases are those the District Magistrate faced at the end of the month. When the accounts
# are drawn up to a later day, the last column says what had become of each deadline by then:
# the step taken (on time or late), not taken (a finding of the month it was missed), or still
# to come.

# %%
h.table(review.deadlines(con, month, district, first=h.MAX_ROWS), table_id="deadlines",
        labels={"days_after_month_end": "days after month end", "by_accounts_date": "by the accounts' date"},
        empty=f"No pending case reaches a deadline in the {days} days after {label}.")

# %% [markdown]
# ## 5. Corrections to earlier months
#
# Register rows of earlier months corrected or struck out since this month began (each
# changed field, with the note the clerk gave): figures of those months have moved.

# %%
h.table(review.corrections_to_earlier_months(con, month, district), table_id="corrections",
        empty="No row of an earlier month was corrected this month.")

# %% [markdown]
# ## 6. Changes to closed months
#
# Figures of months the District Magistrate closed (pound close) that have moved since: the
# value sealed, the value now, and what was loaded after the close that moved it.

# %%
h.table(review.changes_to_closed_months(con, month, district), table_id="adjustments",
        labels=review.ADJUSTMENT_LABELS, value_labels={"measure": review.MEASURE_WORDS},
        empty="No figure of a closed month has moved since its close.")

# %%
con.close()
