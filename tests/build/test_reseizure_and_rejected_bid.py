"""The new paths of the second reading of the Act, hand-computed: a re-seizure under s.16(2) (R4)
and a disposal after a rejected bid (s.15(3) proviso, R5). Reference set of tests/helpers.py:
cattle fine Rs 600, feeding Rs 200 a day, security Rs 1000; P2 in a taluk where s.13 is notified."""

import datetime as dt

from helpers import built, case, make_bundle

AS_OF = dt.date(2026, 11, 30)
SOLD = {"head_offered": 1, "head_sold": 1, "accepted": "yes", "conducted_by": "SO1", "buyer_name": "Farmer B"}


def test_a_reseizure_is_a_case_of_its_own(tmp_path):
    # C1: 1 cattle at P2 impounded 10-01, delivered under protest on 10-03 against 1200 (fine 600 +
    # feeding 200 x 3 = 600). No complaint by 10-31: the deposit falls to the funds on 11-01 (600 to the
    # local fund, 600 to the pound-keeper). C2 seizes the head again on 11-05; the owner refuses again and
    # it is sold under s.17 on 11-10 for 5000: no fine (paid with the deposit), feeding 1 x 200 x 6
    # (11-05 .. 11-10) = 1200, no security (no head returned): balance 5000 - 1200 = 3800.
    bundle = make_bundle(
        tmp_path, impoundments=[case(pound_id="P2"), case("C2", pound_id="P2", impounded_on="2026-11-05", reseizure_of="C1")],
        releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": 1, "basis": "s16_protest",
                   "protest_deposit": "1200", "receipt_signed": "yes"}],
        sales=[dict(SOLD, sale_id="S1", case_id="C2", path="s17_refusal", sale_on="2026-11-10", bid_amount="5000",
                    balance_paid="3800")])
    con = built(bundle, as_of=AS_OF)
    got = con.execute("""SELECT case_id, status, fine_due, feeding_due, security_due, balance_to_owner, heads_in_pound
                         FROM case_accounts ORDER BY case_id""").fetchall()
    assert got == [("C1", "released_under_protest", 60000, 60000, 0, 0, 0),
                   ("C2", "sold_refusal", 0, 120000, 0, 380000, 0)]
    # the follow-up is done, the re-seizure well founded, C2 outside every S15 rule: no finding at all
    assert con.execute("SELECT rule_id, subject_id FROM findings").fetchall() == []
    # heads roll forward: P2 took in 1 + 1 (1 re-seized), let out 1 under protest and sold 1
    row = con.execute("""SELECT sum(heads_impounded), sum(heads_reseized), sum(heads_released), sum(heads_sold),
                                sum(heads_disposed), max(heads_end) FILTER (WHERE month = '2026-11')
                         FROM monthly_accounts WHERE pound_id = 'P2'""").fetchone()
    assert tuple(int(v) for v in row) == (2, 1, 1, 1, 0, 0)


def test_a_disposal_after_a_rejected_bid(tmp_path):
    # C1: 2 cattle at P1 impounded 10-01, unclaimed; notice and proclamation 10-10. The bid of 10-18 is
    # rejected (expenses 100); on 10-20 both heads are handed to a gaushala for 1000. The s.15 waterfall:
    # expenses 100; feeding 2 x 200 x 20 (10-01 .. 10-20) = 8000 takes the other 900; fines 2 x 600 = 1200
    # take nothing: unrecovered 7100 + 1200 = 8300, no surplus. The heads leave on 10-20: status disposed.
    bundle = make_bundle(
        tmp_path, impoundments=[case(head_count=2)],
        police_reports=[{"case_id": "C1", "reported_on": "2026-10-09", "notice_on": "2026-10-10", "proclamation_on": "2026-10-10"}],
        sales=[{"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-10-18", "head_offered": 2,
                "head_sold": 0, "bid_amount": "100", "accepted": "no", "conducted_by": "SO1", "sale_expenses": "100"},
               {"sale_id": "S2", "case_id": "C1", "path": "s15_disposal", "sale_on": "2026-10-20", "head_offered": 2,
                "head_sold": 2, "bid_amount": "1000", "accepted": "yes", "conducted_by": "SO1",
                "disposal_note": "handed to the Mysuru Pinjrapole for Rs 1,000"}])
    con = built(bundle, as_of=AS_OF)
    got = con.execute("""SELECT status, head_sold, head_disposed, sale_proceeds, sale_paid_expenses, sale_paid_feeding,
                                sale_paid_fines, surplus_unclaimed, unrecovered, feeding_due, closed_on
                         FROM case_accounts""").fetchone()
    assert got == ("disposed", 0, 2, 100000, 10000, 90000, 0, 0, 830000, 800000, dt.date(2026, 10, 20))
    assert con.execute("SELECT rule_id FROM findings").fetchall() == []
    row = con.execute("""SELECT sum(heads_sold), sum(heads_disposed), max(heads_end) FILTER (WHERE month = '2026-11')
                         FROM monthly_accounts WHERE pound_id = 'P1'""").fetchone()
    assert tuple(int(v) for v in row) == (0, 2, 0)
