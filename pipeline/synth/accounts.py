"""What the pipeline's own SQL models make of the synthetic registers.

synth computes no due, no sale waterfall and no s.18 movement itself: it loads its typed
frames into an in-memory DuckDB with the registers' schema (pipeline.load.typed), runs
pipeline.build.build up to the model it needs, with the readings in force
(Generator.params), and reads the figures back. A bundle takes two builds:

1. the dues (`dues`), before any violation is planted, with every payment and security
   amount still blank and every s.17 sale provisionally selling all its heads: what each
   release had to collect (int_releases), the security each deposit had to hold
   (security_status.case_security_at_rate, s.13(1)), and what each s.17 sale had to raise (case_accounts). The dues
   of a sale do not depend on how many heads it sells, since they are charged for the
   heads held on the sale day, so one build is enough; cases.settle_dues then sells as
   many heads as necessary (s.17(1)).
2. the accounts (`settle`), after planting: the balance each s.17 sale leaves the owner
   (case_accounts.balance_to_owner, s.17(3)), and the fines and unclaimed surplus that the
   local funds and the DM's deposit account should receive and when (expected_credits),
   which ledgers.py records. The CSV files are then written from the same database.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import REGISTERS
from pipeline.load.connection import options
from pipeline.load.schema import ensure_schema
from pipeline.load.typed import insert_typed
from pipeline.synth import cases
from pipeline.synth.plants import s16_s17
from pipeline.synth.state import NONE, Dues, Generator

DAY = "- DATE '1970-01-01'"          # appended to a date: its day number, as the typed frames count days


class Books:
    """An in-memory database with the registers' schema, holding the synthetic registers."""

    def __init__(self, params: Parameters):
        self.params = params
        self.con = duckdb.connect(config=options())
        ensure_schema(self.con)

    def load(self, frames: dict[str, pd.DataFrame]) -> None:
        """Put these frames in their register tables, in place of what the tables held."""
        for reg in REGISTERS:
            if reg.name in frames:
                self.con.execute(f"DELETE FROM {reg.table}")
                insert_typed(self.con, reg.name, frames[reg.name], f"synth/{reg.name}", blank=NONE)

    def build(self, *upto: str) -> None:
        """Make the tables named and what they read (nothing else is read from these books)."""
        build(self.con, self.params, upto=upto)

    def frame(self, sql: str) -> pd.DataFrame:
        return self.con.execute(sql).df()


def dues(g: Generator) -> Dues:
    """The first build: the dues of the clean registers, payments and amounts still blank."""
    books = Books(g.params)
    books.load({name: frame for name, frame in g.t.items() if name not in ("local_fund", "dm_deposit")})
    books.build("case_accounts", "int_releases", "security_status")
    releases = books.frame("SELECT release_id, fine_due_r AS fine, feeding_due_r AS feeding FROM int_releases")
    deposits = books.frame("SELECT deposit_id, coalesce(case_security_at_rate, 0) AS due FROM security_status")
    sales = books.frame("""
        SELECT case_id, sale_due_total AS due, coalesce(sale_security_one_more_head, 0) AS security
        FROM case_accounts WHERE s17_sale""").set_index("case_id")
    books.con.close()
    return Dues(releases.set_index("release_id"), deposits.set_index("deposit_id").due.astype("int64"),
                sales.due.astype("int64"), sales.security.astype("int64"))


def settle(g: Generator) -> Books:
    """The second build, on the registers as planted: record each s.17 balance as the accounts leave it."""
    cases.remainders(g)
    books = Books(g.params)
    books.load({name: frame for name, frame in g.t.items() if name not in ("local_fund", "dm_deposit")})
    books.build("expected_credits", "case_accounts")
    balance = books.frame("SELECT case_id, balance_to_owner FROM case_accounts WHERE s17_sale AND amounts_known")
    balance = balance.set_index("case_id").balance_to_owner
    s = g.t["sales"]
    m = ((s.path == "s17_refusal") & s.accepted).to_numpy()
    s["balance_paid"] = NONE
    s.loc[m, "balance_paid"] = s.case_id[m].map(balance).fillna(NONE).astype("int64")
    # the owner took it on the sale day and signed for it (s.17(3), s.17(4), R19)
    s["balance_paid_on"] = np.where(m, s.sale_on, NONE)
    s["balance_receipt_signed"] = np.where(m, "yes", "").astype(object)
    s16_s17.balance_mismatch_recorded(g)
    return books


def credits(books: Books) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What the accounts send to the local funds (fines, s.18(2); surplus, s.18(5)) and through the DM's
    deposit account (s.18(5)), as expected_credits says: amounts in paise, days as day numbers."""
    # the books were drawn before the registers recorded the s.17 balances paid (accounts() above writes
    # them from the books: every owner takes his on the sale day), so there a balance reads as never taken,
    # surplus for the DM (R19); in the bundle it is the owner's: no surplus of an s.17 sale is expected
    taken = "(SELECT case_id FROM case_accounts WHERE s17_sale)"
    local = books.frame(f"""
        SELECT reference AS ref, head, local_authority_id, expected_amount AS amount, due_on {DAY} AS due
        FROM expected_credits WHERE ledger = 'local_fund' AND NOT (head = 'surplus' AND reference IN {taken})
        ORDER BY ref, head""")
    # per case, the surplus the DM receives and the day he must credit it on: its two rows side by side
    surplus = books.frame(f"""
        SELECT reference AS case_id, local_authority_id,
               max(expected_amount) FILTER (WHERE ledger = 'dm_deposit') AS amount,
               max(due_on) FILTER (WHERE ledger = 'dm_deposit') {DAY} AS received_due,
               max(due_on) FILTER (WHERE ledger = 'local_fund') {DAY} AS credit_due
        FROM expected_credits WHERE head IN ('receipt', 'surplus') AND reference NOT IN {taken}
        GROUP BY ALL ORDER BY case_id""")
    return local, surplus
