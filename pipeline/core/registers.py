"""One typed declaration per register, reference table and ledger of a bundle.

This module is the input contract in code: which files make up a bundle, their
columns, the kind of value each column holds, which columns are keys, which
values must be present, which value sets apply and which columns must name a
row of another file. The parser (values.py), the great-expectations suites
(expectations/*.json, generated from here by expectations.py) and the database
schema (load/schema.py) are all derived from these declarations.
"""

from __future__ import annotations

from pipeline.core.columns import COUNT, DATE, ENUM, FLAG, ID, MONEY, TEXT, TIME, Column, Register
from pipeline.core.paths import SQL_DIR

ANIMAL_CLASSES = (
    "cattle", "calf", "buffalo", "horse", "mule", "ass", "pig",
    "sheep", "goat", "camel", "elephant",
)

def _c(name, kind, required=False, values=(), refers_to=None, minimum=None, what=""):
    if kind in (MONEY, COUNT) and minimum is None:
        minimum = 0
    return Column(name, kind, required, tuple(values), refers_to, minimum, what)


def _rule_ids() -> tuple[str, ...]:
    """The rule ids, one per file of pipeline/sql/rules: what a finding review may name."""
    return tuple(sorted(p.stem for p in (SQL_DIR / "rules").glob("*.sql")))


DECISIONS = ("explained", "action_ordered", "accepted", "referred", "reopened")
# The sheet of review_<month>.xlsx and of the registers' workbooks that says how to fill them in.
REVIEW_HELP_SHEET = "how to fill in"
# The sheet of a pound-keeper's copy of the registers' workbook that works out what is due on each
# release (pipeline/outputs/template.py).
DUE_SHEET = "what is due"
# The sheets of our own workbooks that hold no register: the loader passes them over quietly.
OWN_SHEETS = (REVIEW_HELP_SHEET, DUE_SHEET)


LOCAL_AUTHORITIES = Register(
    "local_authorities", "reference", exact_name=True, key=("local_authority_id",),
    what="the local authorities whose local funds receive fines and surplus (s.18)",
    columns=(
        _c("local_authority_id", ID, True),
        _c("name", TEXT, True),
        _c("kind", ENUM, True, ("gram_panchayat", "town_panchayat", "municipality", "corporation")),
        _c("district", TEXT, True),
    ),
)

OFFICIALS = Register(
    "officials", "reference", exact_name=True, key=("person_id",),
    what="pound-keepers, police, sale officers and others (s.19(1) buyers are checked against it)",
    columns=(
        _c("person_id", ID, True),
        _c("name", TEXT, True),
        _c("role", ENUM, True, ("pound_keeper", "police", "sale_officer", "tahsildar", "magistrate", "dm_accounts",
                                 "other")),
        _c("district", TEXT),
    ),
)

POUNDS = Register(
    "pounds", "reference", exact_name=True, key=("pound_id",),
    what="the pounds, each in one local authority and taluk",
    columns=(
        _c("pound_id", ID, True),
        _c("name", TEXT, True),
        _c("local_authority_id", ID, True, refers_to="local_authorities.local_authority_id"),
        _c("taluk", TEXT, True),
        _c("district", TEXT, True),
        _c("pound_keeper_id", ID),
    ),
)

RATES = Register(
    "rates", "reference", exact_name=True, key=("animal_class", "taluk", "effective_from"),
    what="fines (s.10(1)), feeding charges (s.12, s.17) and security (s.13) per head, by class, taluk and date",
    extra_checks=("no_overlap",),
    columns=(
        _c("animal_class", ENUM, True, ANIMAL_CLASSES),
        _c("taluk", TEXT, True, what="a taluk name, or * for every taluk"),
        _c("effective_from", DATE, True),
        _c("effective_to", DATE),
        _c("fine_per_head", MONEY, True),
        _c("feeding_per_head_per_day", MONEY, True),
        _c("security_per_head", MONEY),
    ),
)

NOTIFICATIONS = Register(
    "notifications", "reference", exact_name=True, key=("section", "taluk", "effective_from"),
    what="where and when s.13 (security) and s.14 (removal orders) have been applied by notification",
    extra_checks=("no_overlap",),
    columns=(
        _c("section", ENUM, True, ("13", "14")),
        _c("taluk", TEXT, True),
        _c("effective_from", DATE, True),
        _c("effective_to", DATE),
        _c("gazette_ref", TEXT),
    ),
)

IMPOUNDMENTS = Register(
    "impoundments", "registers", key=("case_id",), event_date=("impounded_on",), section="s.10, s.12",
    what="one case per owner's animals of one class brought to a pound",
    columns=(
        _c("case_id", ID, True),
        _c("pound_id", ID, True, refers_to="pounds.pound_id"),
        _c("seized_on", DATE),
        _c("impounded_on", DATE, True),
        _c("impounded_time", TIME),
        _c("place_of_seizure", TEXT),
        _c("seized_by", TEXT),
        _c("animal_class", ENUM, True, ANIMAL_CLASSES),
        _c("head_count", COUNT, True, minimum=1),
        _c("description", TEXT),
        _c("owner_id", ID),
        _c("owner_name", TEXT),
        _c("owner_village", TEXT),
        # s.16(2): "shall be seized again for the purposes of section 17" (second reading, R4)
        Column("reseizure_of", ID, refers_to="impoundments.case_id", optional=True,
               what="the case whose cattle, delivered under protest, this case seizes again (s.16(2))"),
    ),
)

SECURITY_DEPOSITS = Register(
    "security_deposits", "registers", key=("deposit_id",), event_date=("deposited_on",), section="s.13",
    what="security deposited with the pound-keeper before a release in a notified area",
    columns=(
        _c("deposit_id", ID, True),
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("owner_id", ID),
        _c("deposited_on", DATE, True),
        _c("amount", MONEY, True),
        _c("refund_applied_on", DATE),
        _c("refunded_on", DATE),
        _c("refunded_amount", MONEY),
        _c("forfeited_on", DATE),
        _c("forfeited_amount", MONEY),
        # the s.17 sale whose security deduction this row records (second reading, R1); a sale is
        # loaded after the deposits, so the value is matched in the accounts, not on loading
        Column("sale_id", ID, optional=True,
               what="the s.17 sale whose security deduction this deposit is (s.17(2), s.13(2))"),
    ),
)

RELEASES = Register(
    "releases", "registers", key=("release_id",), event_date=("released_on",), section="s.12, s.13, s.16, s.17(3), s.19(2)",
    what="every delivery of impounded animals out of the pound",
    columns=(
        _c("release_id", ID, True),
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("released_on", DATE, True),
        _c("head_count", COUNT, True),
        _c("basis", ENUM, True, ("s12_payment", "s16_protest", "s17_remainder", "court_order")),
        _c("released_to", TEXT),
        _c("fines_paid", MONEY),
        _c("charges_paid", MONEY),
        _c("protest_deposit", MONEY),
        _c("declaration_made", FLAG),
        _c("security_deposit_id", ID, refers_to="security_deposits.deposit_id"),
        _c("receipt_signed", FLAG),
        _c("court_order_ref", TEXT),
    ),
)

POLICE_REPORTS = Register(
    "police_reports", "registers", key=("case_id",), event_date=("reported_on", "notice_on", "proclamation_on"), section="s.15(1), s.15(2)",
    what="the report of unclaimed cattle, the notice and the proclamation by beat of drum",
    columns=(
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("reported_on", DATE),
        _c("reported_to", TEXT),
        _c("notice_on", DATE),
        _c("proclamation_on", DATE),
        # s.15(2): the proclamation "in the village or area and at the market place" is two (R25 of the
        # fourth reading); proclamation_on is the village's or area's. A file without this column records
        # one proclamation for both places: each row takes its proclamation_on here.
        Column("market_proclamation_on", DATE, optional=True, absent_as="proclamation_on",
               what="the day the proclamation by beat of drum was made at the market place near the place of "
                    "seizure (s.15(2))"),
    ),
)

SALES = Register(
    "sales", "registers", key=("sale_id",), event_date=("sale_on",), section="s.15(3), s.17, s.19(1)",
    what="one row per auction attempt; a rejected bid has accepted = no and head_sold = 0",
    columns=(
        _c("sale_id", ID, True),
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("path", ENUM, True, ("s15_unclaimed", "s17_refusal", "s15_disposal")),
        _c("sale_on", DATE, True),
        _c("head_offered", COUNT),
        _c("head_sold", COUNT, True),
        _c("bid_amount", MONEY),
        _c("accepted", FLAG),
        _c("buyer_name", TEXT),
        _c("buyer_person_id", ID),
        _c("conducted_by", ID),
        _c("sale_expenses", MONEY),
        _c("balance_paid", MONEY),
        # s.15(3) proviso: a disposal after a rejected bid says how (second reading, R5)
        Column("disposal_note", TEXT, required_when=("path", "s15_disposal"),
               what="how the cattle were disposed of; required on an s15_disposal row"),
        # s.17(1) rests on the owner's appearance (fourth reading, R18)
        Column("owner_appeared_on", DATE, optional=True,
               what="the day the owner or his agent appeared and refused or omitted to pay (s.17(1))"),
        Column("appeared_person", TEXT, optional=True,
               what="the owner or agent who appeared, by name (s.17(1))"),
        # the balance the owner takes, and his receipt for it (R19)
        Column("balance_paid_on", DATE, optional=True,
               what="the day the balance of the purchase money was paid to the owner (s.17(3))"),
        # yes or no, and a blank stays "not recorded" (a FLAG would read a blank as no)
        Column("balance_receipt_signed", ENUM, values=("yes", "no"), optional=True,
               what="yes if the owner gave a receipt for the balance paid to him, no if he did not (s.17(4))"),
    ),
)

COMPLAINTS = Register(
    "complaints", "registers", key=("case_id",), event_date=("filed_on",), section="s.16, s.20",
    what="complaints of illegal seizure and their outcome",
    columns=(
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("filed_on", DATE, True),
        _c("decided_on", DATE),
        _c("outcome", ENUM, True, ("illegal", "lawful", "withdrawn", "pending")),
    ),
)

REMOVAL_ORDERS = Register(
    "removal_orders", "registers", key=("order_id",), event_date=("issued_on",), section="s.14",
    what="Tahsildar's orders to remove cattle from grazing land, and their enforcement",
    columns=(
        _c("order_id", ID, True),
        _c("taluk", TEXT, True),
        _c("owner_id", ID),
        _c("owner_name", TEXT),
        _c("clause", ENUM, True, ("i", "ii")),
        _c("owner_head_count", COUNT),
        _c("head_count", COUNT),
        _c("issued_on", DATE, True),
        _c("comply_by", DATE),
        _c("complied_on", DATE),
        _c("police_removal_on", DATE),
        _c("fine_imposed", MONEY),
        _c("fine_paid_on", DATE),
    ),
)

LOCAL_FUND = Register(
    "local_fund", "ledgers", key=("entry_id",), event_date=("entry_on",), section="s.18(2), s.18(5)",
    what="what each local fund recorded as credited (the auditors' side)",
    columns=(
        _c("entry_id", ID, True),
        _c("local_authority_id", ID, True, refers_to="local_authorities.local_authority_id"),
        _c("entry_on", DATE, True),
        _c("amount", MONEY, True),
        _c("reference", TEXT),
        _c("head", ENUM, True, ("fines", "surplus", "other")),
    ),
)

DM_DEPOSIT = Register(
    "dm_deposit", "ledgers", key=("entry_id",), event_date=("entry_on",), section="s.18(5)",
    what="the District Magistrate's deposit account for unclaimed sale surplus",
    columns=(
        _c("entry_id", ID, True),
        _c("entry_on", DATE, True),
        _c("kind", ENUM, True, ("receipt", "credit_to_local_fund", "refund_to_claimant")),
        _c("amount", MONEY, True),
        _c("reference", TEXT),
        _c("local_authority_id", ID, refers_to="local_authorities.local_authority_id"),
    ),
)

SURPLUS_CLAIMS = Register(
    "surplus_claims", "registers", key=("claim_id",), event_date=("preferred_on",), section="s.18(5)",
    what="claims to the unclaimed surplus of a sale held by the District Magistrate, and when each was established",
    # s.18(5): the DM credits the surplus to the local fund only "if no claim thereto is preferred and
    # established within that period" (R23 of the fourth reading). A bundle without the file records no claim.
    columns=(
        _c("claim_id", ID, True),
        _c("case_id", ID, True, refers_to="impoundments.case_id"),
        _c("claimant", TEXT, True),
        _c("preferred_on", DATE, True),
        _c("established_on", DATE),
        _c("amount", MONEY),
    ),
)

FINDING_REVIEWS = Register(
    "finding_reviews", "registers", key=("rule_id", "subject_id", "reviewed_on"), section="—",
    what="the District Magistrate's decisions on findings: explained, action ordered, accepted, referred, reopened",
    # A decision is no event of the accounts: it may be dated after them, never after the day it is
    # loaded. A row with a blank decision is a finding left undecided: passed over and counted.
    # finding_detail: the finding as it stood when decided (the review workbook fills it in).
    event_date=("reviewed_on",), extra_checks=("not_after_load_day", "blank_decision_undecided"),
    columns=(
        _c("rule_id", ENUM, True, _rule_ids()),
        _c("subject_id", ID, True),
        _c("reviewed_on", DATE, True),
        _c("reviewed_by", TEXT, True),
        _c("decision", ENUM, True, DECISIONS),
        _c("note", TEXT),
        Column("finding_detail", TEXT, optional=True, what="the finding as it stood when decided"),
    ),
)

# Load order: a file is loaded only after the files it refers to.
REGISTERS: tuple[Register, ...] = (
    LOCAL_AUTHORITIES, OFFICIALS, POUNDS, RATES, NOTIFICATIONS,
    IMPOUNDMENTS, SECURITY_DEPOSITS, RELEASES, POLICE_REPORTS, SALES,
    COMPLAINTS, REMOVAL_ORDERS, LOCAL_FUND, DM_DEPOSIT, SURPLUS_CLAIMS, FINDING_REVIEWS,
)
BY_NAME = {r.name: r for r in REGISTERS}
REFERENCE = tuple(r for r in REGISTERS if r.folder == "reference")
