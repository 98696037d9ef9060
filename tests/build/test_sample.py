"""data/sample: the complete findings list, and the figures a clerk can check by hand."""

import datetime as dt

from helpers import built

# Every finding on the sample as of 2026-11-30, in the order of findings.csv.
SAMPLE_FINDINGS = [
    ("REL-NO-DECLARATION", "release", "R-0007", "N-2609-012", "P02", "2026-09-09"),
    ("REL-NO-SECURITY", "release", "R-0007", "N-2609-012", "P02", "2026-09-09"),
    ("REL-UNPAID", "release", "R-0006", "M-2609-004", "P01", "2026-09-04"),
    ("REL-UNSIGNED", "release", "R-0008", "H-2609-017", "P03", "2026-09-12"),
    # R7: H-2610-018 was sold with no proclamation by beat of drum
    ("S15-SALE-UNPROCLAIMED", "sale", "S-006", "H-2610-018", "P03", "2026-10-19"),
    # R3: RO-03 was made where s.14 is not notified: no S14-NOT-ENFORCED, and medium (nothing followed it)
    ("S14-NOT-NOTIFIED", "order", "RO-03", None, None, "2026-10-15"),
    ("S15-NOTICE-MISSING", "case", "H-2610-018", "H-2610-018", "P03", "2026-10-12"),
    ("S15-REPORT-MISSING", "case", "H-2610-019", "H-2610-019", "P03", "2026-11-05"),
    # R8: the buyer of S-006 has the pound-keeper's name, but no person id: medium
    ("SALE-OFFICIAL-BUYER", "sale", "S-006", "H-2610-018", "P03", "2026-10-19"),
]


def test_the_complete_findings_list_of_the_sample(sample_bundle):
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    got = con.execute("""SELECT rule_id, subject_kind, subject_id, case_id, pound_id, strftime(event_on, '%Y-%m-%d'), detail
                         FROM findings ORDER BY CASE severity WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END,
                                                 rule_id, event_on, subject_id""").fetchall()
    assert [g[:6] for g in got] == SAMPLE_FINDINGS
    details = {g[0]: g[6] for g in got}
    assert details["REL-UNPAID"] == ("Release R-0006 of 1 buffalo (case M-2609-004) on 04-09-2026 collected Rs 600.00 of "
                                     "Rs 600.00 fines and Rs 400.00 of Rs 600.00 feeding charges due under s.12(1): "
                                     "short by Rs 200.00.")
    assert "Ramesh Gowda (PK01, pound-keeper, Mysuru) (a match on the name only" in details["SALE-OFFICIAL-BUYER"]
    assert "the proclamation by beat of drum is not recorded (due by 12-10-2026" in details["S15-NOTICE-MISSING"]


def test_sample_figures_a_clerk_can_check(sample_bundle):
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    # N-2610-013: 4 cattle, s.17 sale of 2 for Rs 22,000 on 09/10/2026 after 9 days in Nanjangud:
    # expenses 500 + feeding 4 x 200 x 9 = 7,200 + fines 4 x 700 = 2,800 + security on the 2 heads returned
    # (R1: not on the 2 sold) 2 x 1,500 = 3,000 -> balance 22,000 - 13,500 = 8,500
    row = con.execute("""SELECT status, sale_proceeds, sale_paid_expenses, sale_paid_feeding, sale_paid_fines,
                                sale_paid_security, balance_to_owner FROM case_accounts WHERE case_id = 'N-2610-013'""").fetchone()
    assert row == ("part_sold", 2200000, 50000, 720000, 280000, 300000, 850000)
    # the 3,000 it kept is a s.13 deposit of its own, held from the sale day (R1)
    assert con.execute("""SELECT deposit_id, owner_id, deposited_on, amount, computed FROM security_status
                          WHERE sale_id = 'S-004'""").fetchall() == [("s17:S-004", "O203", dt.date(2026, 10, 9), 300000, "held")]
    # M-2608-003: s.15 surplus 13,800 to the DM, received by him on 02-09-2026 (DM-001): credited to the
    # local fund on 2026-09-02 + 6 months + 1 day = 2027-03-03 (R2: the six months run from his receipt)
    assert con.execute("""SELECT amount, due_on FROM fund_movements WHERE ref_id = 'M-2608-003' AND account = 'local_fund'
                          AND section = '18(5)'""").fetchone() == (1380000, dt.date(2027, 3, 3))
    # every movement of a sale names the sales rows it comes from before the case's impoundment row;
    # M-2609-006 was auctioned twice (a failed attempt, sales.csv row 3, then the sale, row 4)
    sources = con.execute("""SELECT DISTINCT source FROM fund_movements
                             WHERE ref_id = 'M-2609-006' AND from_account = 'buyer'""").fetchall()
    assert sources == [("registers/sales.csv row 3; registers/sales.csv row 4; registers/impoundments.csv row 13",)]
    # the DM's credit of that surplus: his own entry (DM-004) and the local fund's that shows it arrived (LF-015)
    assert con.execute("""SELECT status, expected_from, entry_ids FROM reconciliation
                          WHERE head = 'credit_to_local_fund' AND reference = 'M-2608-003'""").fetchall() == \
        [("early", "DM-004", "LF-015")]
