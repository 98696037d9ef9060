"""Which papers there are, which model each reads, and the rows in scope.

Each kind is one model of pipeline/sql/marts/ (doc_*), whose header gives the section and
the reading; the rows a kind selects are the papers it writes (grouped, for the findings
memo, by the official it is addressed to and month). The scope (--case, --pound, --from/--to) filters on the model's
own columns: `doc_on` is the day the paper bears.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from pipeline.core.errors import PoundError
from pipeline.read.select import Cond, col, select_records

_SAFE = re.compile(r"[^A-Za-z0-9.-]")


@dataclass(frozen=True)
class Kind:
    name: str              # the file name starts with it: police_report_<case_id>.html
    title: str             # what the index calls it
    model: str
    columns: tuple[str, ...]
    key: tuple[str, ...]   # the columns that name one paper
    order: tuple[str, ...]


_POLICE = ("case_id", "pound_id", "pound_name", "taluk", "district", "pound_keeper_name", "animal_class",
           "head_count", "description", "place_of_seizure", "seized_on", "impounded_on", "owner_name",
           "owner_village", "claim_window_days", "claim_ends_on", "report_due_on", "addressed_to", "reported_on",
           "notice_on", "proclamation_on", "market_proclamation_on", "notice_from", "notice_recorded", "notice_claim_ends_on",
           "sale_allowed_from", "doc_on", "made_late", "s13_on_notice", "security_on_notice", "source")

KINDS: tuple[Kind, ...] = (
    Kind("police_report", "Reports to the police of cattle not claimed (s.15(1))", "doc_police_reports",
         _POLICE, ("case_id",), ("doc_on", "case_id")),
    Kind("notice", "Notices for display and proclamation by beat of drum (s.15(2))", "doc_police_reports",
         _POLICE, ("case_id",), ("doc_on", "case_id")),
    Kind("owner_account", "Accounts of sale (s.17(3), s.18(5)); after a s.17 sale, with the owner's receipt (s.17(4))",
         "doc_owner_accounts",
         ("case_id", "sale_id", "path", "s17_sale", "owner_name", "owner_village", "pound_id", "pound_name",
          "taluk", "district", "animal_class", "description", "sale_officer", "a_cattle_seized", "impounded_on",
          "sold_on", "b_days_impounded", "c_fines_and_charges_payable", "c_fines", "c_feeding", "c_security",
          "c_feeding_overdue", "f_feeding_overdue_deducted", "sale_due_on", "impounded_group_count", "impounded_groups",
          "d_cattle_sold", "d_cattle_disposed", "e_proceeds", "f_expenses_of_sale", "f_feeding_deducted",
          "f_fines_deducted",
          "f_security_deducted", "f_balance_to_owner", "f_balance_paid", "f_balance_held", "balance_unclaimed_on",
          "f_surplus_to_dm", "f_unrecovered", "heads_returned",
          "surplus_to_local_fund_on", "surplus_part_count", "surplus_parts", "reseizure_of", "carried_fines",
          "carried_feeding", "expense_attempts", "expense_sales",
          "security_heads", "security_deposit_id", "security_refundable_after", "doc_on", "source"),
         ("case_id",), ("doc_on", "case_id")),
    Kind("release_receipt", "Receipts for cattle delivered (s.12(2))", "doc_release_receipts",
         ("release_id", "case_id", "pound_id", "pound_name", "taluk", "district", "pound_keeper_name",
          "released_on", "heads_delivered", "heads_impounded", "animal_class", "description", "impounded_on",
          "owner_name", "owner_village", "basis_section", "basis_text", "released_to", "court_order_ref",
          "fines_due", "charges_due", "fines_paid", "charges_paid", "protest_deposit", "security_deposit_id",
          "security_deposited",
          "total_received", "doc_on", "source"),
         ("release_id",), ("doc_on", "release_id")),
    Kind("security_receipt", "Receipts for security deposited (s.13)", "doc_security_receipts",
         ("deposit_id", "case_id", "pound_id", "pound_name", "taluk", "district", "pound_keeper_name", "owner_name",
          "owner_village", "animal_class", "head_count", "description", "impounded_on", "deposited_on", "amount",
          "refundable_after", "window_months", "release_id", "released_on", "heads_delivered", "doc_on", "source"),
         ("deposit_id",), ("doc_on", "deposit_id")),
    Kind("findings_memo", "Findings sent for explanation to the official whose duty they concern, by official",
         "doc_findings_memos",
         ("addressee_key", "month", "addressee_name", "addressee_role", "addressee", "duty", "pound_id",
          "pound_name", "taluk", "district", "rule_id", "section", "severity", "subject_kind", "subject_id",
          "case_id", "event_on", "detail", "days_open", "review_status", "copy_to", "doc_on"),
         ("addressee_key", "month"),
         ("addressee_key", "month", "severity_rank", "rule_id", "event_on", "subject_id")),
)
BY_NAME = {k.name: k for k in KINDS}


@dataclass(frozen=True)
class Scope:
    cases: tuple[str, ...] = ()
    pound: str | None = None
    first: dt.date | None = None
    last: dt.date | None = None

    def where(self) -> list[Cond]:
        out: list[Cond] = []
        if self.cases:
            out.append(Cond("case_id", "in", list(self.cases)))
        if self.pound:
            out.append(Cond("pound_id", "=", self.pound))
        if self.first:
            out.append(Cond("doc_on", ">=", self.first))
        if self.last:
            out.append(Cond("doc_on", "<=", self.last))
        return out


@dataclass(frozen=True)
class Paper:
    kind: Kind
    name: str              # file name without the extension
    rows: tuple[dict, ...] # one row, or the findings of a memo
    selection: dict        # what was read, written into the page

    @property
    def first(self) -> dict:
        return self.rows[0]


def check_models(con) -> None:
    """PoundError unless the database holds every model the papers read (built by this version)."""
    have = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
    missing = sorted({k.model for k in KINDS} - have)
    if missing:
        raise PoundError(f"the database has no table {', '.join(missing)}: it was built before the papers "
                         "could be written; rebuild it with 'pound build --db DB --out DIR'")


def papers(con, kind: Kind, scope: Scope) -> list[Paper]:
    """The papers of one kind in scope, in the order they are dated."""
    # read as plain values (int, str, date, bool, None: the doc_* models hold no other type), without a
    # DataFrame, so that writing papers imports no pandas
    found = select_records(con, kind.model, *[col(c) for c in kind.columns], where=scope.where(), order=kind.order,
                           key=kind.key)
    groups: dict[tuple, list[dict]] = {}
    for row in found:
        groups.setdefault(tuple(row[k] for k in kind.key), []).append(row)
    return [Paper(kind, file_name(kind.name, key), tuple(rows), found.selection) for key, rows in groups.items()]


def file_name(kind: str, key: tuple) -> str:
    """police_report_G05: an id written by a clerk may hold characters a file name cannot."""
    return "_".join([kind, *(_SAFE.sub("-", str(k)) for k in key)])
