"""data/sample: the complete findings list, and the figures a clerk can check by hand."""

import datetime as dt
import shutil

from helpers import built

# Every finding on the sample as of 2026-11-30, in the order of findings.csv.
SAMPLE_FINDINGS = [
    # R21 (issue 50): the DM received M-2608-003's surplus of Rs 13,800 on 02-09-2026 (DM-001) and holds it
    # six months, to 02-03-2027; he credited it on 15-11-2026 (DM-004) and the local fund entered it on
    # 16-11-2026 (LF-015): one finding, filed on the first of the two
    ("DM-SURPLUS-CREDITED-EARLY", "expected_credit", "M-2608-003:surplus", "M-2608-003", "P01", "2026-11-15"),
    ("REL-NO-DECLARATION", "release", "R-0007", "N-2609-012", "P02", "2026-09-09"),
    # R28: R-0012 returned N-2610-013's remaining 2 head after the s.17 sale (S-004), in Nanjangud taluk
    # where s.13 is notified, without the owner's declaration (declaration_made = no)
    ("REL-NO-DECLARATION", "release", "R-0012", "N-2610-013", "P02", "2026-10-09"),
    ("REL-NO-SECURITY", "release", "R-0007", "N-2609-012", "P02", "2026-09-09"),
    ("REL-UNPAID", "release", "R-0006", "M-2609-004", "P01", "2026-09-04"),
    ("REL-UNSIGNED", "release", "R-0008", "H-2609-017", "P03", "2026-09-12"),
    # R7: H-2610-018 was sold with no proclamation by beat of drum
    ("S15-SALE-UNPROCLAIMED", "sale", "S-006", "H-2610-018", "P03", "2026-10-19"),
    # R25: N-2610-014 was proclaimed in the village on 17-10 but never at the market place near Kabini canal
    # road (police_reports.csv has market_proclamation_on, blank for it): S-005 sold it unproclaimed there
    ("S15-SALE-UNPROCLAIMED", "sale", "S-005", "N-2610-014", "P02", "2026-10-20"),
    # R17: S-006's surplus of Rs 4,850 never reached the DM (due 19-10, overdue from 18-11)
    ("DM-RECEIPT-OVERDUE", "expected_credit", "H-2610-018:surplus", "H-2610-018", "P03", "2026-11-18"),
    # R16: N-2609-012's fines credited Rs 100 short; H-2609-017's Rs 1,200 never credited
    ("LF-CREDIT-OVERDUE", "expected_credit", "N-2609-012:fines", "N-2609-012", "P02", "2026-10-09"),
    ("LF-CREDIT-OVERDUE", "expected_credit", "H-2609-017:fines", "H-2609-017", "P03", "2026-10-12"),
    # R3: RO-03 was made where s.14 is not notified: no S14-NOT-ENFORCED, and medium (nothing followed it)
    ("S14-NOT-NOTIFIED", "order", "RO-03", None, None, "2026-10-15"),
    ("S15-NOTICE-MISSING", "case", "H-2610-018", "H-2610-018", "P03", "2026-10-12"),
    ("S15-REPORT-MISSING", "case", "H-2610-019", "H-2610-019", "P03", "2026-11-05"),
    # R25: the owner's 3 days (sheep) run from the last proclamation, a day after the notice: M-2609-006's
    # (notice 24-09, proclaimed 25-09) to 28-09, its rejected bid S-002 of 28-09 a day early; N-2610-014's
    # (notice 16-10, proclaimed 17-10) to 20-10, S-005 of 20-10 a day early
    ("S15-SALE-EARLY", "sale", "S-002", "M-2609-006", "P01", "2026-09-28"),
    ("S15-SALE-EARLY", "sale", "S-005", "N-2610-014", "P02", "2026-10-20"),
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
    assert "no proclamation by beat of drum at the market place near Kabini canal road" in details["S15-SALE-UNPROCLAIMED"]
    assert ("the DM's credit DM-004 of Rs 13,800.00 on 15-11-2026, drawing on his receipt DM-001, whose six months "
            "end on 02-03-2027; the local fund's entry LF-015") in details["DM-SURPLUS-CREDITED-EARLY"]


def test_sample_figures_a_clerk_can_check(sample_bundle):
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    # N-2610-013: 4 cattle, s.17 sale of 2 for Rs 22,000 on 09/10/2026 after 9 days in Nanjangud:
    # expenses 500 + feeding 4 x 200 x 9 = 7,200 + fines 4 x 700 = 2,800 + security on the 2 heads returned
    # (R1: not on the 2 sold) 2 x 1,500 = 3,000 -> balance 22,000 - 13,500 = 8,500
    row = con.execute("""SELECT status, sale_proceeds, sale_paid_expenses, sale_paid_feeding, sale_paid_fines,
                                sale_paid_security, balance_to_owner FROM case_accounts WHERE case_id = 'N-2610-013'""").fetchone()
    assert row == ("part_sold", 2200000, 50000, 720000, 280000, 300000, 850000)
    # its account under s.17(3) (R31): item (c), the fines and charges payable, is 2,800 + 7,200 = 10,000;
    # the security of 3,000, deducted with them (s.17(2)), is a line of its own, not in (c)
    assert con.execute("""SELECT c_fines_and_charges_payable, c_fines, c_feeding, c_security, f_security_deducted
                          FROM owner_accounts WHERE case_id = 'N-2610-013'""").fetchone() == \
        (1000000, 280000, 720000, 300000, 300000)
    # the 3,000 it kept is a s.13 deposit of its own, held from the sale day (R1): the register's D-204,
    # which names the sale (else it would be s17:S-004)
    assert con.execute("""SELECT deposit_id, owner_id, deposited_on, amount FROM security_status
                          WHERE sale_id = 'S-004'""").fetchall() == [("D-204", "O203", dt.date(2026, 10, 9), 300000)]
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


def test_the_samples_paths_of_the_second_reading(sample_bundle):
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    got = {r[0]: r[1:] for r in con.execute("""
        SELECT case_id, status, fine_due, feeding_due, security_due, sale_proceeds, balance_to_owner, unrecovered,
               head_sold, head_disposed FROM case_accounts
        WHERE case_id IN ('N-2609-020', 'N-2610-021', 'M-2610-022', 'N-2611-023')""").fetchall()}
    # R6: N-2609-020 (Nanjangud: fine 700, feeding 200) delivered under protest on 16/09 after 3 days against
    # Rs 2,000; no complaint by 14/10, so on 15/10 fine 700 to the local fund, feeding 3 x 200 = 600 to the
    # pound-keeper, and the 700 left over back to the owner (s.16(1))
    assert got["N-2609-020"] == ("released_under_protest", 70000, 60000, 0, 0, 0, 0, 0, 0)
    assert con.execute("""SELECT account, section, amount, due_on FROM fund_movements
                          WHERE ref_id = 'N-2609-020' AND hop = 2 ORDER BY account""").fetchall() == [
        ("local_fund", "18(2)", 70000, dt.date(2026, 10, 15)), ("owner", "16(1)", 70000, dt.date(2026, 10, 15)),
        ("pound_keeper", "18(3)", 60000, dt.date(2026, 10, 15))]
    # R4: N-2610-021 seizes the cow again on 20/10 (after 14/10) and sells it under s.17 on 26/10 for 9,000:
    # no fine (paid with the deposit), feeding 1 x 200 x 7 = 1,400, expenses 300, no security (none returned)
    # -> balance 9,000 - 1,700 = 7,300
    assert got["N-2610-021"] == ("sold_refusal", 0, 140000, 0, 900000, 730000, 0, 1, 0)
    # R5: M-2610-022 (Mysuru: fine 600, feeding 250), its bid of 2,000 rejected on 19/10 (expenses 200), handed to
    # a gaushala for nothing on 24/10: feeding 1 x 250 x 23 = 5,750 and fine 600 and the 200 of expenses
    # unrecovered = 6,550; the head is disposed of, not sold
    assert got["M-2610-022"] == ("disposed", 60000, 575000, 0, 0, 0, 655000, 0, 1)
    # R1: N-2611-023 sells both heads under s.17 on 10/11 for 8,000: feeding 2 x 200 x 8 = 3,200, fines
    # 2 x 700 = 1,400, expenses 400, no security (no head returned) -> balance 3,000, and no deposit
    assert got["N-2611-023"] == ("sold_refusal", 140000, 320000, 0, 800000, 300000, 0, 2, 0)
    # R1: N-2610-013's 3,000 is the register's D-204 (it names sale S-004), forfeited on 25/11 after the owner
    # O203 was impounded again on 20/11 (N-2611-024)
    assert con.execute("""SELECT deposit_id, reimpound_case_id, computed, recorded FROM security_status
                          WHERE sale_id = 'S-004'""").fetchall() == [("D-204", "N-2611-024", "forfeitable", "forfeited")]
    # R2: M-2609-006's surplus, received by the DM on 10/10/2026, passes to the local fund on 11-04-2027
    assert con.execute("""SELECT due_on FROM fund_movements WHERE ref_id = 'M-2609-006' AND account = 'local_fund'
                          AND section = '18(5)'""").fetchall() == [(dt.date(2027, 4, 11),)]
    # the roll-forward: P01 disposed of 1 head in October; P02 took back 1 re-seized head then
    heads = con.execute("""SELECT pound_id, heads_disposed, heads_reseized FROM monthly_accounts
                           WHERE month = '2026-10' AND pound_id IN ('P01', 'P02') ORDER BY pound_id""").fetchall()
    assert heads == [("P01", 1, 0), ("P02", 0, 1)]


def test_the_samples_overdue_credit_and_receipt_worked_by_hand(sample_bundle):
    """R16 and R17 on the sample as of 30-11-2026 (ledger_grace 30 days):
    - H-2609-017 (P03, Hullahalli, LA03): 2 buffaloes released on 12-09-2026 with Rs 1,200.00 fines paid (2 x 600),
      due to LA03's local fund that day; its ledger has no entry for H-2609-017. Overdue from 12-09 + 30 = 12-10;
      30-11 is 79 days after 12-09. Rs 1,200 < Rs 5,000: medium.
    - N-2609-012 (P02, LA02): 2 calves released on 09-09-2026 with Rs 600.00 fines paid (2 x 300); LF-007 credits
      Rs 500.00, Rs 100.00 short; overdue from 09-09 + 30 = 09-10, 82 days after on 30-11.
    - H-2610-018 (P03): 1 head of cattle impounded 02-10, sold unclaimed (S-006) on 19-10 for Rs 9,500.00:
      expenses 350.00, feeding 18 days x 200 = 3,600.00, fine 700.00 (the P03 rate), surplus
      9,500 - 350 - 3,600 - 700 = Rs 4,850.00 to the DM on 19-10; his ledger has no receipt: overdue from
      19-10 + 30 = 18-11, 42 days after on 30-11. Rs 4,850 < Rs 5,000: medium (Rs 150 more would make it high).
      The sale's fine, Rs 700.00, is credited (LF-014 on 29-10, 10 days after): no finding. The local fund's
      surplus has no due day (no receipt, R2): never overdue."""
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    got = con.execute("""SELECT subject_id, section, severity, detail FROM findings
                         WHERE rule_id IN ('LF-CREDIT-OVERDUE', 'DM-RECEIPT-OVERDUE') ORDER BY subject_id""").fetchall()
    assert got == [
        ("H-2609-017:fines", "18(2)", "medium",
         "The fines of case H-2609-017, Rs 1,200.00 due to the local fund of Hullahalli Gram Panchayat on 12-09-2026, "
         "are not credited within the 30 days allowed (s.18(2))."),
        ("H-2610-018:surplus", "18(5)", "medium",
         "The unclaimed surplus of Rs 4,850.00 from the sale in case H-2610-018 on 19-10-2026 (local fund of "
         "Hullahalli Gram Panchayat) is not received by the District Magistrate within the 30 days allowed (s.18(5))."),
        ("N-2609-012:fines", "18(2)", "medium",
         "The fines of case N-2609-012, Rs 600.00 due to the local fund of Nanjangud Town Municipal Council on "
         "09-09-2026, are credited only Rs 500.00 (Rs 100.00 short) within the 30 days allowed (s.18(2))."),
    ]
    overdue = con.execute("""SELECT count(*), sum(not_credited) FROM credit_arrivals WHERE overdue""").fetchone()
    assert overdue == (3, 120000 + 10000 + 485000)       # Rs 1,200 + Rs 100 + Rs 4,850 = Rs 6,150.00



def test_a_sale_relabelled_s17_with_no_appearance_is_read_as_unclaimed(sample_bundle, tmp_path):
    # R18 (issue 50): H-2610-018's unclaimed sale S-006 (1 bullock, Rs 9,500 on 19-10-2026, no owner on the
    # register, reported to the police on 10-10-2026) relabelled s17_refusal with its Rs 4,850 recorded as
    # paid to an owner. Read as the register's word, the label would switch off S15-SALE-UNPROCLAIMED,
    # S15-NOTICE-MISSING and DM-RECEIPT-OVERDUE and send the 4,850 to no one known. Now the sale is unfounded
    # (no owner, no person who appeared, no appearance after the report): the three findings stay, S17-PATH-
    # UNFOUNDED joins them, and 9,500 - 350 expenses - 18 days x 200 feeding - 700 fine = 4,850 goes to the DM.
    shutil.copytree(sample_bundle, tmp_path / "b")
    sales = tmp_path / "b" / "registers" / "sales.csv"
    text = sales.read_text(encoding="utf-8")
    row = 'S-006,H-2610-018,s15_unclaimed,19/10/2026,1,1,"9,500.00",yes,Ramesh Gowda,,SO02,350.00,,'
    assert row in text
    sales.write_text(text.replace(row, row.replace("s15_unclaimed", "s17_refusal").replace("350.00,,", '350.00,"4,850.00",')),
                     encoding="utf-8")

    def findings(con):
        return sorted(con.execute("SELECT rule_id, subject_id, strftime(event_on, '%Y-%m-%d') FROM findings").fetchall())

    def moves(con):
        return con.execute("""SELECT account, section, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements
                              WHERE ref_id = 'H-2610-018' AND from_account = 'buyer' AND account IN ('owner', 'dm_deposit')
                              """).fetchall()

    as_sold = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    relabelled = built(tmp_path / "b", as_of=dt.date(2026, 11, 30))
    assert findings(relabelled) == sorted(findings(as_sold) + [("S17-PATH-UNFOUNDED", "S-006", "2026-10-19")])
    assert {r[0] for r in findings(relabelled) if r[1] in ("S-006", "H-2610-018", "H-2610-018:surplus")} >= {
        "S15-SALE-UNPROCLAIMED", "S15-NOTICE-MISSING", "DM-RECEIPT-OVERDUE", "S17-PATH-UNFOUNDED"}
    assert moves(relabelled) == moves(as_sold) == [("dm_deposit", "18(5)", 485000, "2026-10-19")]
    assert relabelled.execute("SELECT status, balance_to_owner, surplus_unclaimed FROM case_accounts "
                              "WHERE case_id = 'H-2610-018'").fetchone() == ("sold_unclaimed", 0, 485000)
