"""One waterfall per accepted sale attempt (R22 of the fourth reading) and the overdue feeding of a sale
held late (R20), hand-computed on twins of data/sample (cattle: fine Rs 600; feeding Rs 200 a day for a
case impounded before 01-09-2026, Rs 250 after; days counted both ends included)."""

import datetime as dt
import shutil
from pathlib import Path

import pytest
from helpers import built, built_rows, case

pytestmark = pytest.mark.xdist_group("sale_attempt_waterfall")     # one test process: its two twins built once, not once in each test process

ROOT = Path(__file__).resolve().parents[2]

SALES_HEADER = ("sale_id,case_id,path,sale_on,head_offered,head_sold,bid_amount,accepted,buyer_name,buyer_person_id,"
                "conducted_by,sale_expenses,balance_paid,disposal_note")


def _twin(sample_bundle, tmp_path, replace: dict[str, str], add: list[str]):
    bundle = tmp_path / "twin"
    shutil.copytree(sample_bundle, bundle)
    path = bundle / "registers" / "sales.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == SALES_HEADER
    lines = [replace.get(line.split(",")[0], line) for line in lines] + add
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bundle


# ----------------------------------------------------------------------------------------------
# R22: the two-auction twin of M-2608-003 (3 cattle impounded 12-08-2026, notice 21-08, sale allowed
# from 29-08). In the sample S-001 sold all 3 on 29-08 for Rs 27,000 (expenses Rs 600). In the twin S-001
# sells 2 of them on 29-08 for Rs 18,000 (expenses Rs 600) and S-011 the third on 05-09 for Rs 9,000 (no
# expenses):
#   S-001: feeding 2 head x 18 days (12-08 .. 29-08) x 200 = 7,200; fines 2 x 600 = 1,200;
#          surplus 18,000 - 600 - 7,200 - 1,200 = 9,000
#   S-011: feeding 1 head x 25 days (12-08 .. 05-09) x 200 = 5,000; fines 600; surplus 9,000 - 5,000 - 600 = 3,400
#   the case: feeding 12,200 (not 3 x 25 x 200 = 15,000, Rs 2,800 too much to the pound-keeper before R22),
#   fines 1,800, surplus 12,400; each attempt's feeding, fines and surplus moving on its own day

@pytest.fixture(scope="module")
def two_auctions(tmp_path_factory):
    bundle = _twin(ROOT / "data" / "sample", tmp_path_factory.mktemp("r22"),
                   {"S-001": 'S-001,M-2608-003,s15_unclaimed,29/08/2026,3,2,"18,000.00",yes,Basavaraju K,,SO01,600.00,,'},
                   ['S-011,M-2608-003,s15_unclaimed,05/09/2026,1,1,"9,000.00",yes,Basavaraju K,,SO01,,,'])
    # built up to the three tables its tests read (and the models they read)
    return built(bundle, as_of=dt.date(2026, 11, 30), upto=("sale_attempt_accounts", "case_accounts", "fund_movements"))


def test_r22_each_attempt_pays_for_the_heads_it_sells(two_auctions):
    got = two_auctions.execute("""SELECT sale_id, heads_charged, due_feeding, due_fines, paid_expenses, surplus_unclaimed
                                  FROM sale_attempt_accounts WHERE case_id = 'M-2608-003' ORDER BY sale_on""").fetchall()
    assert got == [("S-001", 2, 720000, 120000, 60000, 900000), ("S-011", 1, 500000, 60000, 0, 340000)]


def test_r22_the_case_is_the_sum_of_its_attempts(two_auctions):
    got = two_auctions.execute("""SELECT feeding_due, sale_paid_feeding, fine_due, sale_paid_fines, surplus_unclaimed,
                                         feeding_overdue, sale_paid_feeding_overdue, sale_attempts, unrecovered
                                  FROM case_accounts WHERE case_id = 'M-2608-003'""").fetchone()
    assert got == (1220000, 1220000, 180000, 180000, 1240000, 0, 0, 2, 0)


def test_r22_each_attempt_moves_on_its_own_day(two_auctions):
    got = two_auctions.execute("""SELECT due_on, account, amount FROM fund_movements
                                  WHERE ref_id = 'M-2608-003' AND hop = 1 ORDER BY due_on, account""").fetchall()
    d1, d2 = dt.date(2026, 8, 29), dt.date(2026, 9, 5)
    assert got == [(d1, "dm_deposit", 900000), (d1, "dm_remittance", 120000), (d1, "pound_keeper", 720000),
                   (d1, "sale_officer", 60000),
                   (d2, "dm_deposit", 340000), (d2, "dm_remittance", 60000), (d2, "pound_keeper", 500000)]


# ----------------------------------------------------------------------------------------------
# R20: M-2610-008 (2 cattle impounded 20-10-2026, reported 28-10, notice 29-10) is not sold in the sample.
# Its sale was allowed from 29-10 + 8 = 06-11 and fell due by 06-11 + 30 = 06-12-2026. The twin sells both
# on 10-12 (4 days late) for Rs 26,000, expenses Rs 500:
#   feeding to the due day: 2 x 48 days (20-10 .. 06-12) x 250 = 24,000; fines 2 x 600 = 1,200;
#   overdue feeding 2 x 4 days x 250 = 2,000, taken last: 26,000 - 500 - 24,000 - 1,200 = 300 of it,
#   Rs 1,700 unrecovered, no surplus.
# Before R20 the feeding of all 52 days (26,000) came before the fines: Rs 25,500 to the pound-keeper and the
# local fund's Rs 1,200 of fines lost to the delay.

@pytest.fixture(scope="module")
def late_sale(tmp_path_factory):
    bundle = _twin(ROOT / "data" / "sample", tmp_path_factory.mktemp("r20"), {},
                   ['S-011,M-2610-008,s15_unclaimed,10/12/2026,2,2,"26,000.00",yes,Basavaraju K,,SO01,500.00,,'])
    return built(bundle, as_of=dt.date(2026, 12, 31))


def test_r20_a_late_sale_pays_the_fines_before_the_overdue_feeding(late_sale):
    got = late_sale.execute("""SELECT feeding_due, feeding_overdue, sale_paid_feeding, sale_paid_fines,
                                      sale_paid_feeding_overdue, unrecovered, surplus_unclaimed
                               FROM case_accounts WHERE case_id = 'M-2610-008'""").fetchone()
    assert got == (2600000, 200000, 2400000, 120000, 30000, 170000, 0)
    moves = late_sale.execute("""SELECT section, account, amount, what FROM fund_movements
                                 WHERE ref_id = 'M-2610-008' AND hop = 1 ORDER BY section, amount""").fetchall()
    assert [m[:3] for m in moves] == [("17(2)", "sale_officer", 50000), ("18(1)", "dm_remittance", 120000),
                                      ("18(3)", "pound_keeper", 30000), ("18(3)", "pound_keeper", 2400000)]
    assert "held 4 days after the sale fell due on 06-12-2026" in moves[2][3]


def test_r20_the_late_sale_is_found_and_sent_to_the_officer_the_report_was_made_to(late_sale):
    got = late_sale.execute("""SELECT severity, subject_id, event_on, detail FROM findings
                               WHERE rule_id = 'S15-SALE-LATE'""").fetchall()
    assert len(got) == 1
    severity, subject, on, detail = got[0]
    assert (severity, subject, on) == ("medium", "M-2610-008", dt.date(2026, 12, 10))
    assert "4 days after the sale fell due on 06-12-2026" in detail and "Rs 2,000.00 of overdue feeding" in detail
    # the report was made to Vijayanagar Police Station, not a person of officials.csv: the memo goes there
    memo = late_sale.execute("""SELECT addressee_key FROM doc_findings_memos WHERE rule_id = 'S15-SALE-LATE'""").fetchall()
    assert memo == [("police-Vijayanagar Police Station",)]
    # a deadline of the Act missed, for the analysts' explore page
    assert late_sale.execute("""SELECT deadline FROM deadlines_missed WHERE rule_id = 'S15-SALE-LATE'""").fetchall() \
        == [("auction held late",)]


# ----------------------------------------------------------------------------------------------
# R20 with waterfall_order = pro_rata: overdue feeding is one more due. C1: 1 head impounded 01-10-2026,
# notice 10-10, sale due by 17-11; sold on 19-11 (2 days late) for Rs 5,000: dues feeding 48 x 200 = 9,600,
# fine 600, overdue 2 x 200 = 400, total 10,600; each takes 5,000/10,600 of itself, to the paisa:
# feeding round(9,600 x 5,000 / 10,600) = 4,528.30, fines round(10,200 x ...) - 4,528.30 = 4,811.32 - 4,528.30
# = 283.02, overdue 5,000 - 4,811.32 = 188.68.

def test_r20_pro_rata_shares_the_overdue_feeding_as_one_more_due():
    con = built_rows(as_of=dt.date(2026, 11, 30), params={"waterfall_order": "pro_rata"}, upto=("case_accounts",),
                     impoundments=[case()],
                     police_reports=[{"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "Town PS",
                                      "notice_on": "2026-10-10", "proclamation_on": "2026-10-10"}],
                     sales=[{"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-11-19",
                             "head_offered": 1, "head_sold": 1, "bid_amount": "5000", "accepted": "yes",
                             "buyer_name": "Farmer B", "conducted_by": "SO1"}])
    got = con.execute("""SELECT sale_paid_feeding, sale_paid_fines, sale_paid_feeding_overdue, unrecovered
                         FROM case_accounts""").fetchone()
    assert got == (452830, 28302, 18868, 560000)


def test_r20_r31_the_owners_account_of_the_late_sale_has_its_own_lines(tmp_path, run_cli, monkeypatch):
    # the account of M-2610-008's late sale: (b) the heads with their days, of which 4 after the sale fell
    # due; (c) feeding to 06-12 (24,000) and the overdue feeding (2,000) apart; (f) Rs 300 of it paid after
    # the fines (1,200)
    import shared
    from bs4 import BeautifulSoup
    bundle = _twin(ROOT / "data" / "sample", tmp_path,
                   {}, ['S-011,M-2610-008,s15_unclaimed,10/12/2026,2,2,"26,000.00",yes,Basavaraju K,,SO01,500.00,,'])
    monkeypatch.setenv("POUND_LOAD_TIME", shared.LOAD_TIME)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", "2026-12-31")
    assert code == 0, err
    code, _, err = run_cli("documents", "--db", tmp_path / "out" / "pound.duckdb", "--out", tmp_path / "papers",
                           "--case", "M-2610-008")
    assert code == 0, err
    page = (tmp_path / "papers" / "owner_account_M-2610-008.html").read_text(encoding="utf-8")
    # the paper wraps ids and dates in nowrap spans, which get_text(" ") parts from the colon after them
    text = " ".join(BeautifulSoup(page, "html.parser").get_text(" ").split()).replace(" :", ":")
    assert ("2 head to the sale S-011 on 10-12-2026: 52 days, of which 4 after the sale fell due on 06-12-2026"
            in text)
    assert "feeding and watering to the day the sale fell due, 06-12-2026 Rs 24,000.00" in text
    assert "feeding and watering after the sale fell due (s.15(3)), payable after the fines Rs 2,000.00" in text
    assert "fines, sent to the District Magistrate for the local fund (s.18(1), (2)) Rs 1,200.00" in text
    assert "paid to the pound-keeper after the fines (s.18(3)) Rs 300.00" in text
    assert "dues the proceeds could not meet Rs 1,700.00" in text


# ----------------------------------------------------------------------------------------------
# R27: C1, 2 cattle impounded 01-10-2026; the owner appears on 10-10 and refuses to pay; S1 sells 1 head that
# day for Rs 20,000: feeding of both heads to 10-10, 2 x 10 x 200 = 4,000, fines 1,200, balance 14,800. The
# other head is kept and returned on 12-10 (R1) with Rs 100 paid of the 2 x 200 = Rs 400 of feeding after the
# sale: Rs 300 unrecovered, not the sale's shortfall. The case's feeding: 10 + 12 head-days x 200 = 4,400.

def test_r27_the_remainder_kept_after_the_sale_owes_its_feeding_at_its_return():
    con = built_rows(as_of=dt.date(2026, 11, 30), impoundments=[case(head_count=2)],
                     sales=[{"sale_id": "S1", "case_id": "C1", "path": "s17_refusal", "sale_on": "2026-10-10",
                             "head_offered": 1, "head_sold": 1, "bid_amount": "20000", "accepted": "yes",
                             "buyer_name": "Farmer B", "conducted_by": "SO1", "owner_appeared_on": "2026-10-10",
                             "balance_paid": "14800"}],
                     releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-12", "head_count": 1,
                                "basis": "s17_remainder", "charges_paid": "100", "receipt_signed": "yes"}])
    got = con.execute("""SELECT feeding_due, sale_paid_feeding, balance_to_owner, unrecovered, sale_unrecovered,
                                remainder_unrecovered FROM case_accounts""").fetchone()
    assert got == (440000, 400000, 1480000, 30000, 0, 30000)
    assert con.execute("SELECT after_sale_feeding_r, after_sale_unpaid_r FROM int_releases").fetchone() == (40000, 30000)
    assert con.execute("SELECT charges_due FROM doc_release_receipts").fetchone() == (40000,)
    assert con.execute("SELECT impounded_groups FROM owner_accounts").fetchone() == (
        "2 head to the sale S1 on 10-10-2026: 10 days; 1 head kept after the sale of 10-10-2026 and returned on "
        "12-10-2026: 2 days more, charged at the return (s.17(3), s.12(1))",)
    # REL-UNPAID on the return; the sale met its dues, so no S17-SHORTFALL-RETURNED (the ledgers are empty here:
    # the fines' credit is overdue too)
    found = sorted(r for (r,) in con.execute("SELECT rule_id FROM findings").fetchall())
    assert found == ["LF-CREDIT-OVERDUE", "REL-UNPAID"]
