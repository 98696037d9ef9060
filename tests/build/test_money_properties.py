"""Money in equals money out, to the paisa (hypothesis), and the waterfall's invariants."""

import datetime as dt

import pytest
from build_together import marked
from examples import examples
from helpers import REFERENCE, built, database, insert_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import BY_NAME
from pipeline.load.schema import current_rows

CLASSES = ["cattle", "calf", "sheep", "ass", "goat", "buffalo", "elephant"]
D0 = dt.date(2026, 6, 1)


def rupees(paise: int) -> str:
    return f"{paise // 100}.{paise % 100:02d}"


money = st.integers(min_value=0, max_value=5_000_000)      # up to Rs 50,000.00, any paisa


@st.composite
def a_case(draw, n: int):
    cid = f"C{n}"
    heads = draw(st.integers(1, 6))
    d = D0 + dt.timedelta(days=draw(st.integers(0, 120)))
    pound = draw(st.sampled_from(["P1", "P2"]))
    owner = draw(st.sampled_from(["", "O1", "O2", "O3"]))
    imp = {"case_id": cid, "pound_id": pound, "impounded_on": d.isoformat(), "animal_class": draw(st.sampled_from(CLASSES)),
           "head_count": heads, "owner_id": owner}
    # R4: sometimes a re-seizure under s.16(2) of the case before it, founded or not
    if n > 0 and draw(st.integers(0, 4)) == 0:
        imp["reseizure_of"] = f"C{n - 1}"
    releases, sales, complaints, deposits = [], [], [], []
    for i in range(draw(st.integers(0, 2))):
        basis = draw(st.sampled_from(["s12_payment", "s16_protest", "s17_remainder", "court_order"]))
        releases.append({
            "release_id": f"{cid}R{i}", "case_id": cid, "head_count": draw(st.integers(0, heads)), "basis": basis,
            "released_on": (d + dt.timedelta(days=draw(st.integers(0, 60)))).isoformat(),
            "fines_paid": rupees(draw(money)), "charges_paid": rupees(draw(money)),
            # R6: any deposit, often more than the fines and charges (the excess is the owner's)
            "protest_deposit": rupees(draw(money)) if basis == "s16_protest" else "",
            "receipt_signed": "yes", "court_order_ref": "OS 1" if basis == "court_order" else ""})
    for i in range(draw(st.integers(0, 3))):
        accepted = draw(st.booleans())
        sales.append({
            # R5: a disposal after a rejected bid (or without one) takes heads out through the s.15 waterfall
            "sale_id": f"{cid}S{i}", "case_id": cid,
            "path": draw(st.sampled_from(["s15_unclaimed", "s17_refusal", "s15_disposal"])), "disposal_note": "gaushala",
            "sale_on": (d + dt.timedelta(days=draw(st.integers(0, 60)))).isoformat(),
            "head_offered": heads, "head_sold": draw(st.integers(0, heads)) if accepted else 0,
            "bid_amount": rupees(draw(money)), "accepted": "yes" if accepted else "no",
            "conducted_by": "SO1", "sale_expenses": rupees(draw(st.integers(0, 500_000))),
            "balance_paid": rupees(draw(money)) if draw(st.booleans()) else ""})
    if draw(st.booleans()):
        outcome = draw(st.sampled_from(["illegal", "lawful", "withdrawn", "pending"]))
        complaints.append({"case_id": cid, "filed_on": (d + dt.timedelta(days=draw(st.integers(0, 40)))).isoformat(),
                           "decided_on": "" if outcome == "pending" else (d + dt.timedelta(days=draw(st.integers(41, 90)))).isoformat(),
                           "outcome": outcome})
    for i in range(draw(st.integers(0, 2))):
        t = d + dt.timedelta(days=draw(st.integers(0, 200)))
        dep = {"deposit_id": f"{cid}D{i}", "case_id": cid, "owner_id": owner, "deposited_on": t.isoformat(),
               "amount": rupees(draw(money))}
        fate = draw(st.sampled_from(["held", "refunded", "forfeited"]))
        if fate == "refunded":
            dep.update(refund_applied_on=(t + dt.timedelta(days=190)).isoformat(),
                       refunded_on=(t + dt.timedelta(days=200)).isoformat(),
                       refunded_amount=dep["amount"] if draw(st.booleans()) else "")
        elif fate == "forfeited":
            dep.update(forfeited_on=(t + dt.timedelta(days=30)).isoformat(),
                       forfeited_amount=rupees(draw(money)) if draw(st.booleans()) else "")
        deposits.append(dep)
    return imp, releases, sales, complaints, deposits


@st.composite
def a_bundle(draw):
    # each example is built whole (about half a second whatever its size), so the examples are
    # few and large: up to 16 cases each, all independent of one another
    cases = [draw(a_case(n)) for n in range(draw(st.integers(1, 16)))]
    tables = {k: [r for c in cases for r in (c[i] if i else [c[0]])]
              for i, k in enumerate(["impoundments", "releases", "sales", "complaints", "security_deposits"])}
    orders = []
    if draw(st.booleans()):
        orders.append({"order_id": "O1", "taluk": "Notified", "clause": "ii", "owner_head_count": 30,
                       "issued_on": "2026-07-01", "fine_imposed": rupees(draw(money)), "fine_paid_on": "2026-08-01"})
    tables["removal_orders"] = orders
    # sometimes a class has no rate, or its rate ends mid-case: money must still be fully accounted for
    if draw(st.booleans()):
        dropped = draw(st.sets(st.sampled_from(CLASSES), max_size=3))
        ends = draw(st.sampled_from(["", "2026-07-15", "2026-09-01"]))
        tables["rates"] = [dict(r, effective_to=ends) for r in REFERENCE["rates"] if r["animal_class"] not in dropped]
    return {k: v for k, v in tables.items() if v}


def _in_force(name: str) -> str:
    """The rows of a register in force: the current version of each key, not struck out."""
    return f"(SELECT * FROM {current_rows(BY_NAME[name])} WHERE NOT void)"


RECEIVED = f"""
WITH received AS (
    SELECT 'case' AS ref_kind, case_id AS ref_id,
           coalesce(fines_paid, 0) + coalesce(charges_paid, 0) + coalesce(protest_deposit, 0) AS amount
    FROM {_in_force("releases")}
    -- a disposal after a rejected bid is accepted whatever the cell says (R5)
    UNION ALL SELECT 'case', case_id, CASE WHEN accepted OR path = 's15_disposal' THEN coalesce(bid_amount, 0) ELSE 0 END
    FROM {_in_force("sales")}
    -- a deposit that records an s.17 sale's deduction was received with the sale (R1)
    UNION ALL SELECT 'deposit', deposit_id, amount FROM {_in_force("security_deposits")} WHERE sale_id IS NULL
    UNION ALL SELECT 'order', order_id, fine_imposed FROM {_in_force("removal_orders")} WHERE fine_paid_on IS NOT NULL
),
r AS (SELECT ref_kind, ref_id, sum(amount) AS amount FROM received GROUP BY ALL HAVING sum(amount) <> 0),
m AS (SELECT ref_kind, ref_id, sum(amount) AS amount FROM fund_movements WHERE hop = 1 GROUP BY ALL)
SELECT coalesce(r.ref_kind, m.ref_kind), coalesce(r.ref_id, m.ref_id), r.amount, m.amount
FROM r FULL OUTER JOIN m ON r.ref_kind = m.ref_kind AND r.ref_id = m.ref_id
WHERE r.amount IS DISTINCT FROM m.amount
"""


def assert_money_conserved(con):
    assert con.execute(RECEIVED).fetchall() == []
    # no zero (or negative) movement is written
    assert con.execute("SELECT count(*) FROM fund_movements WHERE amount <= 0").fetchone()[0] == 0
    # money moved on (hop 2) never exceeds what its first holder received
    over = con.execute("""
        WITH h1 AS (SELECT ref_kind, ref_id, account, sum(amount) AS a FROM fund_movements WHERE hop = 1 GROUP BY ALL
                    UNION ALL
                    -- an s.17 sale's security was received with the sale (a movement of the case): its
                    -- deposit moves on what the case's sale put in custody (R1)
                    SELECT 'deposit', s.deposit_id, 'pound_keeper_custody', s.amount
                    FROM security_status s WHERE s.sale_id IS NOT NULL),
             h2 AS (SELECT ref_kind, ref_id, from_account AS account, sum(amount) AS a FROM fund_movements WHERE hop = 2 GROUP BY ALL)
        SELECT * FROM h2 LEFT JOIN h1 USING (ref_kind, ref_id, account) WHERE h1.a IS NULL OR h2.a > h1.a""").fetchall()
    assert over == []
    # the waterfall: proceeds are spent exactly, nothing is negative
    bad = con.execute("""
        SELECT case_id FROM case_accounts WHERE sold_on IS NOT NULL AND rate_found AND (
            sale_paid_expenses + sale_paid_feeding + sale_paid_fines + sale_paid_security + sale_paid_feeding_overdue
              + balance_to_owner + surplus_unclaimed <> sale_proceeds
            OR least(balance_to_owner, surplus_unclaimed, unrecovered, sale_paid_feeding, sale_paid_feeding_overdue) < 0
            OR (balance_to_owner > 0 AND surplus_unclaimed > 0))""").fetchall()
    assert bad == []
    # R22: each accepted attempt spends its own proceeds exactly, and leaves a surplus only when it paid its dues
    bad = con.execute("""
        SELECT sale_id FROM sale_attempt_accounts WHERE rate_found AND amounts_known AND (
            paid_expenses + paid_feeding + paid_fines + paid_security + paid_feeding_overdue
              + balance_to_owner + surplus_unclaimed <> sale_proceeds
            OR least(balance_to_owner, surplus_unclaimed, unrecovered, paid_feeding, paid_feeding_overdue) < 0
            OR (unrecovered > 0 AND balance_to_owner + surplus_unclaimed > 0))""").fetchall()
    assert bad == []
    # R1: an s.17 sale's security never exceeds the heads returned x the highest security rate, and
    # is nothing when no head was returned
    over = con.execute("""
        SELECT case_id FROM case_accounts WHERE s17_sale AND sale_due_security
            > sale_security_heads * (SELECT coalesce(max(r_security), 0) FROM stg_rate_rows)""").fetchall()
    assert over == []
    # what an s.17 sale kept as security is a deposit of security_status, of the same amount
    # the heads roll forward, disposed and re-seized heads among them (the build checks heads_check too)
    heads = con.execute("""
        SELECT sum(heads_impounded) - sum(heads_released) - sum(heads_sold) - sum(heads_disposed),
               sum(heads_disposed), sum(heads_reseized) FROM monthly_accounts""").fetchone()
    cases = con.execute("""
        SELECT sum(heads_in_pound), sum(head_disposed), sum(head_count) FILTER (WHERE case_id IN
               (SELECT case_id FROM int_cases WHERE reseizure_of IS NOT NULL)) FROM case_accounts""").fetchone()
    assert [int(v or 0) for v in heads] == [int(v or 0) for v in cases]
    assert con.execute("""
        SELECT a.case_id FROM case_accounts a LEFT JOIN security_status s ON s.sale_id = a.last_sale_id
        WHERE a.s17_sale AND a.sale_paid_security > 0 AND s.amount IS DISTINCT FROM a.sale_paid_security""").fetchall() == []


@st.composite
def a_corrected_bundle(draw):
    """A bundle, and corrections of some of its rows: amounts changed, rows struck out, rows restored."""
    tables = draw(a_bundle())
    corrections: dict[str, list[dict]] = {}
    for name, amount_cols in (("releases", ["fines_paid", "charges_paid", "protest_deposit"]),
                              ("sales", ["bid_amount", "sale_expenses"]),
                              ("security_deposits", ["amount"])):
        for row in tables.get(name, []):
            what = draw(st.sampled_from(["keep", "keep", "amount", "void", "void_and_restore"]))
            if what == "keep":
                continue
            if what == "amount":
                col = draw(st.sampled_from(amount_cols))
                if row.get(col) in ("", None) and col != "amount":
                    continue
                changed = dict(row, **{col: rupees(draw(money)), "correction_note": "amount corrected"})
                corrections.setdefault(name, []).append(changed)
            elif name != "security_deposits":       # a deposit a release names may not be struck out alone
                corrections.setdefault(name, []).append(dict(row, void="yes", correction_note="entered in error"))
                if what == "void_and_restore":
                    corrections.setdefault(f"{name}+", []).append(dict(row, void="no", correction_note="restored"))
    return tables, corrections


CORRECTED = ("releases", "sales", "security_deposits", "releases+", "sales+")


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables=a_bundle(), drawn=a_corrected_bundle())
def test_money_received_equals_first_hop_movements_as_entered_and_as_corrected(tables, drawn):
    """Money is conserved on a bundle as entered and on a bundle with corrections loaded after it
    (amounts changed, rows struck out, rows restored). A build costs about half a second whatever its
    rows, so each example builds the two together, in one database, each one's ids marked as its own
    (Q000~ as entered, Q001~ corrected: build_together.marked), the first one's rates, if it draws any,
    for both: the checks of assert_money_conserved are of each case, sale, deposit and order (a row it
    names says by its mark which bundle it is of), and the heads roll forward over the two bundles'
    independent cases as over one bundle's."""
    corrected, corrections = drawn
    together: dict[str, list[dict]] = {}
    for i, bundle in enumerate((tables, corrected)):
        for name, rows in bundle.items():
            if name != "rates":
                together.setdefault(name, []).extend(marked(i, name, rows))
    if "rates" in tables:
        together["rates"] = tables["rates"]
    # the rows typed by the loader's parser and inserted (helpers.database): reading files is tests/load's
    con = database(**together)
    for name in CORRECTED:
        if corrections.get(name):
            register = name.rstrip("+")
            insert_rows(con, register, marked(1, register, corrections[name]),
                        label=f"registers/{register}_corrections.csv")
    build(con, Parameters({}, as_of=dt.date(2027, 6, 30)))
    assert_money_conserved(con)


def test_money_is_conserved_on_the_sample(sample_bundle):
    assert_money_conserved(built(sample_bundle))


def test_money_is_conserved_on_the_golden_bundle(golden_bundle):
    assert_money_conserved(built(golden_bundle, as_of=dt.date(2026, 12, 31)))


def test_a_changed_waterfall_order_still_conserves_money(golden_bundle):
    con = built(golden_bundle, as_of=dt.date(2026, 12, 31),
                params={"waterfall_order": ["fines", "feeding", "expenses", "security"]})
    assert_money_conserved(con)
    # G07: proceeds 3000 now pay fines 1200 first, then 1800 of the 9000 feeding, and nothing of the expenses
    got = con.execute("SELECT sale_paid_fines, sale_paid_feeding, sale_paid_expenses, unrecovered "
                      "FROM case_accounts WHERE case_id = 'G07'").fetchone()
    assert got == (120000, 180000, 0, 720000 + 50000)


def test_a_pro_rata_waterfall_shares_a_shortfall_and_conserves_money(golden_bundle):
    # R9 of the second reading (s.17(2) lists the dues without an order). G07: proceeds 3000 against
    # expenses 500 + feeding 9000 + fines 1200 = 10,700 (no security under s.15): each due takes
    # 3000 / 10700 of itself. In paise, cumulative shares rounded: expenses 50000 x 300000 / 1070000
    # = 14019.19 -> 14019 (140.19); expenses + feeding 950000 x 300000 / 1070000 = 266355.6 -> 266355,
    # so feeding 266355 - 14019 = 252336 (2523.36); fines the rest, 300000 - 266355 = 33645 (336.45
    # = 1200 x 0.28037...). Unrecovered 10700 - 3000 = 7700.
    con = built(golden_bundle, as_of=dt.date(2026, 12, 31), params={"waterfall_order": "pro_rata"})
    assert_money_conserved(con)
    got = con.execute("SELECT sale_paid_expenses, sale_paid_feeding, sale_paid_fines, unrecovered "
                      "FROM case_accounts WHERE case_id = 'G07'").fetchone()
    assert got == (14019, 252336, 33645, 770000)
    # proceeds that meet every due are not shared: G06 is the same under either reading
    default = built(golden_bundle, as_of=dt.date(2026, 12, 31))
    q = "SELECT sale_paid_expenses, sale_paid_feeding, sale_paid_fines, balance_to_owner FROM case_accounts WHERE case_id = 'G06'"
    assert con.execute(q).fetchone() == default.execute(q).fetchone()


def test_waterfall_order_takes_pro_rata_or_a_list_of_the_four_dues():
    from pipeline.core.errors import PoundError
    from pipeline.core.params import Parameters
    assert Parameters({"waterfall_order": "pro_rata"})["waterfall_order"] == "pro_rata"
    with pytest.raises(PoundError, match="pro_rata"):
        Parameters({"waterfall_order": "pro-rata"})


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_money_is_conserved_on_synth_bundles(tmp_path, seed):
    # every case of a `pound synth` bundle, planted violations included (sales held late, a rejected bid
    # before the accepted one, the s.17 remainder): the movements out of each case equal the money
    # received for it, to the paisa, with one waterfall per accepted attempt (R22) and the overdue
    # feeding (R20) among them
    from pipeline.synth import SynthConfig, write_bundle
    cfg = SynthConfig(start="2025-11", pounds=4, months=8, cases_per_month=10, seed=seed, violation_rate=0.5)
    write_bundle(tmp_path / "b", cfg)
    con = built(tmp_path / "b", as_of=cfg.months_span()[1])
    assert_money_conserved(con)
    planted = (tmp_path / "b" / "planted.csv").read_text(encoding="utf-8").count("S15-SALE-LATE,")
    late = con.execute("SELECT count(DISTINCT case_id) FROM sale_attempt_accounts WHERE days_late > 0").fetchone()[0]
    assert late == planted
