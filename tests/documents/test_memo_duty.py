"""The findings memos go to the official whose duty each finding is about: a sale's findings to
the officer who conducted it, s.15(2) findings to the officer the police report was made to, s.14
findings to the Tahsildar of the order's taluk, ledger findings to an accounts officer, the rest to
the pound-keeper. One memo per official and month; the papers' index lists them by official."""

from __future__ import annotations

import csv
import datetime as dt
import re
from pathlib import Path

import pytest
from helpers import built_rows, case

from pipeline.documents.papers import Scope
from pipeline.documents.render import write_papers
from pipeline.read.database import connect
from pipeline.synth import SynthConfig, write_bundle

ROOT = Path(__file__).resolve().parents[2]


def as_of(con) -> dt.date:
    """The date the accounts were built as of (the sales register read as the accounts read it)."""
    return dt.date.fromisoformat(con.execute("SELECT value FROM parameters WHERE name = 'as_of'").fetchone()[0])


def expected_addressee(con, f: dict) -> str | None:
    """The addressee of a finding worked out again in Python from the registers, as the issue states
    the duties (not from the memo model): the key a memo to that official is filed under."""
    one = lambda sql, *args: (con.execute(sql, list(args)).fetchone() or (None,))[0]  # noqa: E731
    if f["rule_id"] == "LF-CREDIT-OVERDUE":
        # R30: whoever held the money: fines collected at a release (or taken from a deposit under protest)
        # the pound's keeper; a sale's fines and surplus the officer of the case's last accepted sale
        kept = one("SELECT count(*) FROM int_releases WHERE case_id = ? AND fines_paid > 0", f["case_id"]) or one(
            "SELECT count(*) FROM fund_movements WHERE case_id = ? AND from_account = 'protest_deposit_held' "
            "AND section = '18(2)' AND amount > 0", f["case_id"])
        if f["subject_id"].endswith(":fines") and kept:
            return one("SELECT pound_keeper_id FROM stg_pounds WHERE pound_id = ?", f["pound_id"]) or \
                f"pound-keeper-{f['pound_id']}"
        sale, by = con.execute("SELECT arg_max(sale_id, sale_on), arg_max(conducted_by, sale_on) FROM current_sales() "
                               "WHERE NOT void AND sale_on <= ? AND accepted AND case_id = ?",
                               [as_of(con), f["case_id"]]).fetchone()
        named = by and one("SELECT person_id FROM stg_officials WHERE person_id = ?", by)
        return named or f"sale-officer-{sale or 'of-' + f['case_id']}"
    if f["rule_id"] in ("DM-SURPLUS-CREDITED-EARLY", "DM-CLAIM-OUT-OF-TIME") or f["subject_kind"] == "dm_deposit_entry":
        # the accounts section of the DM's office: a dm_accounts official of the district by name, else the title
        return one("SELECT min(person_id) FROM stg_officials WHERE role = 'dm_accounts' AND lower(district) = lower(?)",
                   f["district"]) or f"accounts-DM-{f['district'] or ''}"
    if f["rule_id"] == "DM-RECEIPT-OVERDUE":       # the officer of the case's accepted sale, who is to send it
        sale, by = con.execute("SELECT arg_max(sale_id, sale_on), arg_max(conducted_by, sale_on) FROM current_sales() "
                               "WHERE NOT void AND sale_on <= ? AND accepted AND case_id = ?",
                               [as_of(con), f["case_id"]]).fetchone()
        return one("SELECT person_id FROM stg_officials WHERE person_id = ?", by) or f"sale-officer-{sale}"
    if f["subject_kind"] == "sale":
        return one("SELECT conducted_by FROM current_sales() WHERE NOT void AND sale_on <= ? AND sale_id = ?",
                   as_of(con), f["subject_id"]) or \
            f"sale-officer-{f['subject_id']}"
    # R26: heads left unsold are the officer's the report went to; with no report, the pound-keeper's
    heads_left_reported = f["rule_id"] == "HEADS-LEFT-IN-POUND" and one(
        "SELECT reported_on FROM stg_police_reports WHERE case_id = ?", f["case_id"]) is not None
    if f["section"].startswith("15(2)") or f["rule_id"] in ("S15-SALE-OVERDUE", "S15-SALE-LATE") or heads_left_reported:
        to = one("SELECT reported_to FROM stg_police_reports WHERE case_id = ?", f["case_id"])
        return one("SELECT person_id FROM stg_officials WHERE person_id = ?", to) or f"police-{to or f['case_id']}"
    if f["subject_kind"] == "order" or f["section"].startswith("14"):
        taluk = one("SELECT taluk FROM stg_removal_orders WHERE order_id = ?", f["subject_id"])
        if taluk is None:                   # an order dated after the accounts' date
            return f"tahsildar-of-{f['subject_id']}"
        names = con.execute("SELECT person_id, name FROM stg_officials WHERE role = 'tahsildar' ORDER BY person_id").fetchall()
        mine = [p for p, n in names if re.search(rf"(^|\s){re.escape(taluk.lower())}(\s|$)", n.lower())]
        return mine[0] if mine else f"tahsildar-{taluk}"
    if f["subject_kind"] == "local_fund_entry":
        return f"accounts-{one('SELECT arg_max(local_authority_id, _version) FROM local_fund WHERE entry_id = ?', f['subject_id'])}"  # noqa: E501
    if f["pound_id"] is None:
        return None
    return one("SELECT pound_keeper_id FROM stg_pounds WHERE pound_id = ?", f["pound_id"]) or \
        f"pound-keeper-{f['pound_id']}"


def check_memos(con, out: Path) -> list:
    """Every memo's findings are of its addressee's duty, each waiting finding is in exactly one memo,
    and there is one memo per official and month. Returns the memos written."""
    written = [w for w in write_papers(con, out, Scope(), as_of=dt.date(2026, 12, 31))
               if w.paper.kind.name == "findings_memo"]
    cols = ["rule_id", "subject_id", "subject_kind", "section", "case_id", "pound_id", "local_authority_id",
            "district", "month"]
    waiting = [dict(zip(cols, r, strict=True)) for r in con.execute(
        f"SELECT {', '.join(cols)} FROM findings WHERE review_status IN ('open', 'reopened')").fetchall()]
    expected = {(f["rule_id"], f["subject_id"]): (expected_addressee(con, f), f["month"]) for f in waiting}
    seen: dict[tuple, tuple] = {}
    for w in written:
        for r in w.paper.rows:
            assert (r["addressee_key"], r["month"]) == (w.paper.first["addressee_key"], w.paper.first["month"])
            assert (r["rule_id"], r["subject_id"]) not in seen, "a finding in two memos"
            seen[(r["rule_id"], r["subject_id"])] = (r["addressee_key"], r["month"])
    assert seen == {k: v for k, v in expected.items() if v[0] is not None}
    keys = [(w.paper.first["addressee_key"], w.paper.first["month"]) for w in written]
    assert len(keys) == len(set(keys)), "one memo per official and month"
    return written


def test_every_memo_of_the_sample_is_of_its_addressee_s_duty(shared, tmp_path):
    run = shared.run(ROOT / "data" / "sample", "2026-11-30")
    con = connect(run / "pound.duckdb")
    try:
        written = check_memos(con, tmp_path)
    finally:
        con.close()
    by_finding = {(r["rule_id"], r["subject_id"]): w.paper for w in written for r in w.paper.rows}
    # the case: SO02 conducted sale S-006, where a pound-keeper bought (s.19(1)): the memo is
    # SO02's, not P03's pound-keeper's; its twin, a release's finding at P02, is that pound-keeper's
    sale = by_finding[("SALE-OFFICIAL-BUYER", "S-006")]
    assert sale.name == "findings_memo_SO02_2026-10" and sale.first["addressee"] == "Girish B, Sale officer"
    assert by_finding[("REL-NO-SECURITY", "R-0007")].first["addressee_key"] == "PK02"
    # s.15(2): H-2610-018's notice is the Nanjangud Rural police's to explain, by the register's words
    police = by_finding[("S15-NOTICE-MISSING", "H-2610-018")]
    assert police.first["addressee_key"] == "police-Nanjangud Rural Police Station"
    # s.14: order RO-03 of Mysuru taluk goes to TAH02, "Tahsildar Mysuru", by name
    assert by_finding[("S14-NOT-NOTIFIED", "RO-03")].first["addressee"].startswith("Tahsildar Mysuru, Tahsildar, Mysuru")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    # the index lists the memos by official, each official's months on one line: Tahsildar Mysuru's October
    # (RO-03's November S14-NOT-ENFORCED is gone: an order where s.14 is not notified binds nobody, R3)
    tah = re.search(r"<li>Tahsildar Mysuru, Tahsildar, Mysuru taluk: (.*?)</li>", index)
    assert tah and re.findall(r'href="([^"]+)"', tah.group(1)) == ["findings_memo_TAH02_2026-10.html"]


def test_the_index_lists_an_official_s_months_on_one_line(golden_db, tmp_path):
    con = connect(golden_db / "pound.duckdb")
    try:
        written = check_memos(con, tmp_path)
    finally:
        con.close()
    months: dict[str, list[str]] = {}
    for w in written:
        months.setdefault(w.paper.first["addressee"], []).append(f"{w.paper.name}.html")
    who, mine = max(months.items(), key=lambda kv: len(kv[1]))
    assert len(mine) > 1, months                        # an official with memos of two months or more
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    line = re.search(rf"<li>{re.escape(who)}: (.*?)</li>", index)
    assert line and sorted(re.findall(r'href="([^"]+)"', line.group(1))) == sorted(mine)


def test_every_memo_of_the_golden_bundle_is_of_its_addressee_s_duty(golden_db, tmp_path):
    con = connect(golden_db / "pound.duckdb")
    try:
        assert check_memos(con, tmp_path)
    finally:
        con.close()


def test_every_memo_of_a_synthetic_district_is_of_its_addressee_s_duty(tmp_path, run_cli):
    cfg = SynthConfig(start="2024-03", pounds=4, months=6, cases_per_month=10, seed=3, violation_rate=0.3)
    write_bundle(tmp_path / "b", cfg)
    end = cfg.months_span()[1]
    code, _, err = run_cli("run", tmp_path / "b", "--out", tmp_path / "out", "--as-of", end.isoformat())
    assert code == 0, err
    with (tmp_path / "out" / "findings.csv").open(encoding="utf-8") as fh:
        kinds = {r["subject_kind"] for r in csv.DictReader(fh)}
    assert {"sale", "order", "release"} <= kinds, kinds       # the duties are exercised
    con = connect(tmp_path / "out" / "pound.duckdb")
    try:
        written = check_memos(con, tmp_path / "papers")
    finally:
        con.close()
    duties = {r["duty"] for w in written for r in w.paper.rows}
    assert {"sale_officer", "tahsildar", "pound_keeper"} <= duties, duties


ORDER = {"order_id": "O1", "taluk": "Plain", "owner_id": "X", "owner_name": "Owner X", "clause": "i",
         "owner_head_count": 3, "head_count": 3, "issued_on": "2026-10-05", "comply_by": "2026-10-20",
         "complied_on": "", "police_removal_on": "", "fine_imposed": "", "fine_paid_on": ""}


@pytest.mark.parametrize("tahsildar", [None, "Tahsildar Plain"], ids=["by-title", "by-name"])
def test_a_s14_finding_goes_to_the_tahsildar_of_the_order_s_taluk(tmp_path, tahsildar):
    """An order in Plain taluk, where s.14 is not notified (S14-NOT-NOTIFIED): the memo goes to the
    Tahsildar of Plain, by name when officials.csv names one whose name holds the taluk, else by title;
    a tahsildar of another taluk ("Tahsildar Plainfield") is not he."""
    from helpers import REFERENCE

    officials = [*REFERENCE["officials"], {"person_id": "T9", "name": "Tahsildar Plainfield", "role": "tahsildar",
                                           "district": "Mysuru"}]
    if tahsildar:
        officials.append({"person_id": "T1", "name": tahsildar, "role": "tahsildar", "district": "Mysuru"})
    con = built_rows(officials=officials, removal_orders=[ORDER])
    try:
        memos = [w for w in write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
                 if w.paper.kind.name == "findings_memo"]
    finally:
        con.close()
    s14 = [w.paper for w in memos if any(r["rule_id"].startswith("S14") for r in w.paper.rows)]
    assert len(s14) == 1 and all(r["duty"] == "tahsildar" for r in s14[0].rows)
    if tahsildar:
        assert s14[0].name == "findings_memo_T1_2026-10"
        assert s14[0].first["addressee"] == "Tahsildar Plain, Tahsildar, Plain taluk"
    else:
        assert s14[0].name == "findings_memo_tahsildar-Plain_2026-10"
        assert s14[0].first["addressee"] == "Tahsildar, Plain taluk"
    page = (tmp_path / f"{s14[0].name}.html").read_text(encoding="utf-8")
    assert "To: <span data-col=\"addressee\">" in page and "Plain taluk" in page
    assert "pound-keeper" not in page.lower()          # not sent to P1's pound-keeper


def test_a_pound_keeper_s_memo_holds_his_findings_and_no_sale_officer_s(tmp_path):
    """C1 never reported (S15-REPORT-MISSING, the pound-keeper's) and C2 sold early by SO1 (S15-SALE-EARLY,
    the sale officer's): two memos, one each."""
    sale = {"sale_id": "S1", "case_id": "C2", "path": "s15_unclaimed", "sale_on": "2026-10-05", "head_offered": 1,
            "head_sold": 1, "bid_amount": "9000", "accepted": "yes", "conducted_by": "SO1", "sale_expenses": "100"}
    con = built_rows(impoundments=[case("C1", impounded_on="2026-10-01"),
                                   case("C2", impounded_on="2026-10-01", owner_id="O2")],
                     police_reports=[{"case_id": "C2", "reported_on": "2026-10-02", "reported_to": "Town PS",
                                      "notice_on": "2026-10-02", "proclamation_on": "2026-10-02"}],
                     sales=[sale])
    try:
        memos = {w.paper.name: w.paper for w in write_papers(con, tmp_path, Scope(), as_of=dt.date(2026, 11, 30))
                 if w.paper.kind.name == "findings_memo"}
    finally:
        con.close()
    assert {r["rule_id"] for r in memos["findings_memo_PK1_2026-10"].rows} >= {"S15-REPORT-MISSING"}
    assert all(r["duty"] == "pound_keeper" for r in memos["findings_memo_PK1_2026-10"].rows)
    sold = memos["findings_memo_SO1_2026-10"]
    assert {r["rule_id"] for r in sold.rows} == {"S15-SALE-EARLY"} and sold.first["addressee"] == "Manjunath K, Sale officer"


def test_memos_name_the_police_officer_the_sale_officer_and_the_accounts_officer(tmp_path):
    """R13, R16, R17. C1 reported on 09-10-2026 to PO1 (officials.csv: "Manjunath H"), notice on 10-10 and no
    proclamation (S15-NOTICE-MISSING), and never sold (S15-SALE-OVERDUE: sale due by 10-10 + 7 + 1 + 30 =
    17-11): both go to him by name, not to the pound-keeper. C2 sold unclaimed by SO1 on 18-10 for Rs 5,000:
    surplus 5,000 - 18 x 200 - 600 = Rs 800 never received by the DM (DM-RECEIPT-OVERDUE, to SO1, who is to
    send it) and the Rs 600 of fines never credited to LA1 (LF-CREDIT-OVERDUE, to SO1, who held them, R30).
    The twin: a report made to a station (text naming no official) is addressed by that text."""
    from helpers import REFERENCE

    officials = [*REFERENCE["officials"], {"person_id": "PO1", "name": "Manjunath H", "role": "police",
                                           "district": "Mysuru"}]
    reports = [{"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "PO1", "notice_on": "2026-10-10"},
               {"case_id": "C2", "reported_on": "2026-10-09", "reported_to": "Town PS", "notice_on": "2026-10-10",
                "proclamation_on": "2026-10-10"}]
    sale = {"sale_id": "S1", "case_id": "C2", "path": "s15_unclaimed", "sale_on": "2026-10-18", "head_offered": 1,
            "head_sold": 1, "bid_amount": "5000", "accepted": "yes", "conducted_by": "SO1", "buyer_name": "Farmer B"}
    con = built_rows(officials=officials, police_reports=reports, sales=[sale],
                     impoundments=[case("C1"), case("C2", owner_id="O2")])
    try:
        got = {r[0]: r[1:] for r in con.execute(
            "SELECT rule_id, addressee_key, addressee FROM doc_findings_memos ORDER BY rule_id").fetchall()}
    finally:
        con.close()
    police = "Manjunath H, Officer in charge, to whom the report under s.15(1) was made"
    assert got["S15-NOTICE-MISSING"] == ("PO1", police)
    assert got["S15-SALE-OVERDUE"] == ("PO1", police)
    assert got["DM-RECEIPT-OVERDUE"] == (
        "SO1", "Manjunath K, Sale officer, who is to send the surplus to the District Magistrate (s.18(5))")
    # R30: the sale's fines were the sale officer's to see credited; LA1's accounts officer has a copy
    assert got["LF-CREDIT-OVERDUE"] == ("SO1", "Manjunath K, Sale officer, who held the money to be credited to the "
                                               "local fund")


def test_a_report_made_to_a_station_is_addressed_by_its_text(tmp_path):
    """The twin of the test above: "Town PS" names no official, so the memo goes to it as written."""
    reports = [{"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "Town PS", "notice_on": "2026-10-10"}]
    con = built_rows(police_reports=reports, impoundments=[case("C1")])
    try:
        got = dict(con.execute("SELECT rule_id, addressee FROM doc_findings_memos").fetchall())
    finally:
        con.close()
    assert got["S15-SALE-OVERDUE"] == got["S15-NOTICE-MISSING"] == \
        "Town PS, Officer in charge, to whom the report under s.15(1) was made"


@pytest.mark.parametrize("dm_accounts, key, addressee", [
    pytest.param({"person_id": "DMA1", "name": "Shantha R", "role": "dm_accounts", "district": "Mysuru"}, "DMA1",
                 "Shantha R, Accounts officer, office of the District Magistrate, Mysuru", id="named"),
    # the twin: a dm_accounts official of another district is not this office's; the memo goes to the title
    pytest.param({"person_id": "DMA2", "name": "Kavya S", "role": "dm_accounts", "district": "Mandya"},
                 "accounts-DM-Mysuru", "Accounts officer, office of the District Magistrate, Mysuru", id="other-district"),
])
def test_a_surplus_credited_early_goes_to_the_dm_s_accounts_section(dm_accounts, key, addressee):
    """R21: C1 sold unclaimed on 18-10-2026 (surplus Rs 800), received by the DM on 20-10-2026 and credited by
    him on 01-12-2026, inside his six months: the memo goes to the accounts section of his office, by name where
    officials.csv has a dm_accounts official of the district."""
    from helpers import REFERENCE

    reports = [{"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "Town PS", "notice_on": "2026-10-10",
                "proclamation_on": "2026-10-10"}]
    sale = {"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-10-18", "head_offered": 1,
            "head_sold": 1, "bid_amount": "5000", "accepted": "yes", "conducted_by": "SO1", "buyer_name": "Farmer B"}
    dm = [{"entry_id": "DM1", "entry_on": "2026-10-20", "kind": "receipt", "amount": "800", "reference": "C1",
           "local_authority_id": "LA1"},
          {"entry_id": "DM2", "entry_on": "2026-12-01", "kind": "credit_to_local_fund", "amount": "800", "reference": "C1",
           "local_authority_id": "LA1"}]
    con = built_rows(officials=[*REFERENCE["officials"], dm_accounts], police_reports=reports, sales=[sale],
                     dm_deposit=dm, impoundments=[case("C1")], as_of=dt.date(2026, 12, 31))
    try:
        got = con.execute("SELECT addressee_key, addressee, duty FROM doc_findings_memos "
                          "WHERE rule_id = 'DM-SURPLUS-CREDITED-EARLY'").fetchall()
    finally:
        con.close()
    assert got == [(key, addressee, "dm_accounts")]


# The cases of the two tests below, as of 31-12-2026 (a credit not made, R30; a refund out of time, R23),
# each under an id and an owner of its own, are built together once for the module (`at_year_end`): no
# row of one case reads another's, and each test reads its own case's findings alone.
CREDITS = {   # the case, who took its fines, and the memo's addressee
    # fines of Rs 600 collected at release R1 by the pound-keeper of P1: his to see credited (R30)
    "collected-at-a-release": ("C1", "release", "PK1", "Ramesh Gowda, Pound-keeper, Plain Pound"),
    # the twin: the same fines taken from the sale's proceeds by SO1 are the sale officer's
    "taken-from-a-sale": ("C2", "sale", "SO1", "Manjunath K, Sale officer, who held the money to be credited to the "
                                               "local fund"),
}
REFUNDS = {   # the case, the claims preferred for it, and whether DM-CLAIM-OUT-OF-TIME fires
    "no-claim-recorded": ("C3", [], True),
    # the twin: a claim preferred within the six months and established before the refund
    "a-claim-in-time": ("C4", [{"claim_id": "K1", "claimant": "Mahadevappa", "preferred_on": "2026-11-02",
                                "established_on": "2026-11-20"}], False),
}


def _year_end_rows() -> dict[str, list[dict]]:
    """The rows of CREDITS' and REFUNDS' cases."""
    rows: dict[str, list[dict]] = {"impoundments": [], "releases": [], "police_reports": [], "sales": [],
                                   "dm_deposit": [], "surplus_claims": []}

    def sold(case_id: str, sale_id: str, reported_on: str, sale_on: str) -> None:
        # reported to "Town PS" (notice and proclamation on the day after the report, or on it), sold
        # unclaimed by SO1 for Rs 5,000
        shown = "2026-10-10" if reported_on == "2026-10-09" else reported_on
        rows["police_reports"].append({"case_id": case_id, "reported_on": reported_on, "reported_to": "Town PS",
                                       "notice_on": shown, "proclamation_on": shown})
        rows["sales"].append({"sale_id": sale_id, "case_id": case_id, "path": "s15_unclaimed", "sale_on": sale_on,
                              "head_offered": 1, "head_sold": 1, "bid_amount": "5000", "accepted": "yes",
                              "conducted_by": "SO1", "buyer_name": "Farmer B"})

    for case_id, fines_at, _, _ in CREDITS.values():
        rows["impoundments"].append(case(case_id, impounded_on="2026-10-01", owner_id=f"O{case_id[1:]}"))
        if fines_at == "release":
            rows["releases"].append({"release_id": "R1", "case_id": case_id, "released_on": "2026-10-03",
                                     "head_count": 1, "basis": "s12_payment", "fines_paid": "600",
                                     "charges_paid": "600", "receipt_signed": "yes"})
        else:
            sold(case_id, "S1", "2026-10-02", "2026-10-18")
    for n, (case_id, claims, _) in enumerate(REFUNDS.values(), start=2):
        # sold on 18-10-2026 (surplus Rs 800), received by the DM on 20-10-2026 and Rs 300 refunded by him on 01-12-2026
        rows["impoundments"].append(case(case_id, owner_id=f"O{case_id[1:]}"))
        sold(case_id, f"S{n}", "2026-10-09", "2026-10-18")
        rows["dm_deposit"] += [{"entry_id": f"DM{2 * n - 1}", "entry_on": "2026-10-20", "kind": "receipt", "amount": "800",
                                "reference": case_id, "local_authority_id": "LA1"},
                               {"entry_id": f"DM{2 * n}", "entry_on": "2026-12-01", "kind": "refund_to_claimant",
                                "amount": "300", "reference": case_id, "local_authority_id": "LA1"}]
        rows["surplus_claims"] += [{**claim, "case_id": case_id} for claim in claims]
    return rows


@pytest.fixture(scope="module")
def at_year_end(tmp_path_factory):
    """(the connection to CREDITS' and REFUNDS' cases built as of 31-12-2026, their papers written:
    {paper name: Written}), built and written once for the module (read only)."""
    con = built_rows(as_of=dt.date(2026, 12, 31), **_year_end_rows())
    try:
        written = write_papers(con, tmp_path_factory.mktemp("at_year_end"), Scope(), as_of=dt.date(2026, 12, 31))
        yield con, {w.paper.name: w for w in written}
    finally:
        con.close()


@pytest.mark.xdist_group("memo_duty")     # one test process: at_year_end built once
@pytest.mark.parametrize("case_id, fines_at, key, addressee", list(CREDITS.values()), ids=list(CREDITS))
def test_a_credit_not_made_goes_to_whoever_held_the_money_with_a_copy(at_year_end, case_id, fines_at, key, addressee):
    """R30: LF-CREDIT-OVERDUE on the case's fines (Rs 600, never in LA1's ledger), as of 31-12-2026, well past
    the 30 days' grace. The memo goes to whoever held the fines, and names LA1's accounts officer as a copy,
    on the model and on the paper."""
    con, written = at_year_end
    got = con.execute("SELECT addressee_key, addressee, copy_to FROM doc_findings_memos "
                      "WHERE rule_id = 'LF-CREDIT-OVERDUE' AND case_id = ?", [case_id]).fetchall()
    assert got == [(key, addressee, "Accounts officer, Town Council")]
    # the memo to him that holds the finding
    memos = [w for w in written.values() if w.paper.kind.name == "findings_memo" and w.paper.first["addressee_key"] == key
             and any(r["rule_id"] == "LF-CREDIT-OVERDUE" and r["case_id"] == case_id for r in w.paper.rows)]
    page = memos[0].path.read_text(encoding="utf-8")
    assert "Copy to:" in page and f"Accounts officer, Town Council, for LF-CREDIT-OVERDUE {case_id}:fines" in page


@pytest.mark.xdist_group("memo_duty")     # one test process: at_year_end built once
@pytest.mark.parametrize("case_id, claims, fires", list(REFUNDS.values()), ids=list(REFUNDS))
def test_a_refund_out_of_time_goes_to_the_dm_s_accounts_section(at_year_end, case_id, claims, fires):
    """R23: the case sold unclaimed on 18-10-2026 (surplus Rs 800), received by the DM on 20-10-2026 and Rs 300
    refunded by him on 01-12-2026: on no claim, the memo goes to the accounts section of his office, which paid it."""
    con, _ = at_year_end
    got = con.execute("SELECT addressee_key, addressee, duty FROM doc_findings_memos "
                      "WHERE rule_id = 'DM-CLAIM-OUT-OF-TIME' AND case_id = ?", [case_id]).fetchall()
    assert got == ([("accounts-DM-Mysuru", "Accounts officer, office of the District Magistrate, Mysuru",
                     "dm_accounts")] if fires else [])


def test_heads_left_in_the_pound_go_to_the_officer_reported_to_or_else_the_pound_keeper(tmp_path):
    """R26: C1 (2 head) reported to "Town PS", one head sold on 18-10 and the other left past 17-11: the
    officer the report went to is to sell it. C2 (2 head), one released on 03-10 and the other never
    reported: the pound-keeper's (he is to report it)."""
    reports = [{"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "Town PS", "notice_on": "2026-10-10",
                "proclamation_on": "2026-10-10"}]
    sale = {"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-10-18", "head_offered": 2,
            "head_sold": 1, "bid_amount": "9000", "accepted": "yes", "conducted_by": "SO1", "buyer_name": "Farmer B"}
    release = {"release_id": "R1", "case_id": "C2", "released_on": "2026-10-03", "head_count": 1,
               "basis": "s12_payment", "fines_paid": "600", "charges_paid": "600", "receipt_signed": "yes"}
    con = built_rows(police_reports=reports, sales=[sale], releases=[release],
                     impoundments=[case("C1", head_count=2), case("C2", owner_id="O2", head_count=2)])
    try:
        got = {r[0]: r[1] for r in con.execute("SELECT case_id, addressee FROM doc_findings_memos "
                                               "WHERE rule_id = 'HEADS-LEFT-IN-POUND'").fetchall()}
    finally:
        con.close()
    assert got["C1"] == "Town PS, Officer in charge, to whom the report under s.15(1) was made"
    assert got["C2"].startswith("Pound-keeper") or "Pound-keeper" in got["C2"], got
