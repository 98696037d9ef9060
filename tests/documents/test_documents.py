"""pound documents: which papers are written (each kind fires for its trigger and stays silent in
its near-miss twin), and that every figure on a page is its model's and the exports' figure."""

from __future__ import annotations

import csv
import datetime as dt
import re
from html import unescape
from pathlib import Path

import pytest
from helpers import built_rows, case

from pipeline.documents.papers import Scope
from pipeline.documents.render import write_papers

# one test process: the module's papers (the golden bundle's, and the twins') written once, not once in each
pytestmark = pytest.mark.xdist_group("documents")

FIG = re.compile(r'<span class="fig" data-col="([a-z_0-9]+)">([^<]*)</span>')


def figures(html: str) -> dict[str, str]:
    return {c: unescape(v) for c, v in FIG.findall(html)}


def names(written, kind: str) -> list[str]:
    return sorted(w.paper.name for w in written if w.paper.kind.name == kind)


def _papers(tmp_path, as_of=dt.date(2026, 11, 30), scope=None, **tables):
    con = built_rows(as_of=as_of, **tables)
    try:
        return write_papers(con, tmp_path, scope or Scope(), as_of=as_of)
    finally:
        con.close()


# --- the golden bundle (as of 31-12-2026) ---------------------------------------------------

@pytest.fixture(scope="module")
def golden_papers(golden_db, tmp_path_factory):
    from pipeline.read.database import as_of, connect

    out = tmp_path_factory.mktemp("golden_papers")
    con = connect(golden_db / "pound.duckdb")
    try:
        return out, write_papers(con, out, Scope(), as_of=as_of(con))
    finally:
        con.close()


def test_each_kind_is_written_for_exactly_the_cases_that_need_it(golden_papers, golden_db):
    out, written = golden_papers
    # G05 (sheep, 03-08, report day 07-08), G04 (cattle, 15-12, report day 23-12) and G14 (sheep, 20-12,
    # report day 24-12) were still wholly in the pound on their report day; G07 and G06 are s.17 (the
    # owner came and refused), every other case was claimed within its window.
    assert names(written, "police_report") == ["police_report_G04", "police_report_G05", "police_report_G14"]
    assert names(written, "notice") == ["notice_G04", "notice_G05", "notice_G14"]
    assert names(written, "owner_account") == ["owner_account_G05", "owner_account_G06", "owner_account_G07"]
    releases = sorted(f"release_receipt_{r}" for r in
                      ["R00", "R01", "R02", "R03", "R06", "R08", "R09", "R10", "R11", "R12", "R13", "R15"])
    assert names(written, "release_receipt") == releases
    # a memo per official and month whose duty a finding waiting for a decision is about (test_memo_duty.py):
    # here the pound-keepers K1 (PA) and K2 (PB), by the months of their pounds' open findings
    with (golden_db / "findings.csv").open(encoding="utf-8") as fh:
        keepers = {"PA": "K1", "PB": "K2"}
        memos = sorted({f"findings_memo_{keepers[r['pound_id']]}_{r['month']}" for r in csv.DictReader(fh)
                        if r["pound_id"] and r["review_status"] in ("open", "reopened")
                        and r["subject_kind"] not in ("sale", "expected_credit")})
    assert set(memos) <= set(names(written, "findings_memo"))
    # the local funds' credits overdue (R16: G10's fines at LA1, G09's at LA2, each taken from a deposit under
    # protest the pound-keeper held) go to the keeper of each pound, LA1's and LA2's accounts officers named as
    # a copy (R30)
    by_name = {w.paper.name: w for w in written}
    for memo, subject, copy in (("findings_memo_K1_2026-11", "G10:fines", "Accounts officer, Northtown Municipality"),
                                ("findings_memo_K2_2026-11", "G09:fines", "Accounts officer, Southvale Gram Panchayat")):
        rows = [r for r in by_name[memo].paper.rows if r["rule_id"] == "LF-CREDIT-OVERDUE"]
        assert [(r["subject_id"], r["copy_to"]) for r in rows] == [(subject, copy)]
        assert f"{copy}, for LF-CREDIT-OVERDUE {subject}" in by_name[memo].path.read_text(encoding="utf-8")
    assert not [n for n in names(written, "findings_memo") if n.startswith("findings_memo_accounts-LA")]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{w.path.name}"' in index for w in written)


def test_police_reports_bear_the_day_made_or_the_accounts_date_and_the_sale_day(golden_papers):
    out, _ = golden_papers
    # by hand: G04 cattle impounded 15-12, w = 7: claim to 22-12, report due 23-12. No report is
    # recorded, so the paper is made on the accounts' date, 31-12 (late, and it says so, never dated
    # back), and the notice runs from it: sale from 31-12 + 7 + 1 = 08-01-2027.
    page = (out / "police_report_G04.html").read_text(encoding="utf-8")
    g04 = figures(page)
    assert (g04["doc_on"], g04["report_due_on"], g04["claim_ends_on"], g04["sale_allowed_from"]) == \
        ("31-12-2026", "23-12-2026", "22-12-2026", "08-01-2027")
    assert "made late" in page
    assert "police station nearest to South Pound" in (out / "police_report_G04.html").read_text(encoding="utf-8")
    # G05 sheep 03-08, w = 3: report day 07-08; notice recorded 07-08, proclaimed 08-08 (one proclamation for
    # both places: the file has no market_proclamation_on): the owner's days run from the last, 08-08 (R25):
    # claim to 11-08, sale from 12-08.
    g05 = figures((out / "notice_G05.html").read_text(encoding="utf-8"))
    assert (g05["notice_from"], g05["notice_claim_ends_on"], g05["sale_allowed_from"], g05["claim_window_days"]) \
        == ("07-08-2026", "11-08-2026", "12-08-2026", "3")
    # G14 was reported (and its notice shown) on its day, 24-12: the paper bears it, on time; proclaimed on
    # 25-12, its sale is allowed from 25-12 + 3 + 1 = 29-12 (R25)
    page = (out / "police_report_G14.html").read_text(encoding="utf-8")
    g14 = figures(page)
    assert (g14["doc_on"], g14["sale_allowed_from"]) == ("24-12-2026", "29-12-2026") and "made late" not in page


def _rs(text: str) -> str:
    """An export's rupees (9000.00) as a page writes them (Rs 9,000.00)."""
    from pipeline.core.money import rs
    whole, frac = text.split(".")
    return rs(int(whole) * 100 + int(frac))


def test_every_figure_of_an_owner_account_equals_the_export(golden_papers, golden_db):
    out, _ = golden_papers
    with (golden_db / "owner_accounts.csv").open(encoding="utf-8") as fh:
        exports = {r["case_id"]: r for r in csv.DictReader(fh)}
    for case_id, exp in exports.items():
        got = figures((out / f"owner_account_{case_id}.html").read_text(encoding="utf-8"))
        assert got, case_id
        for c, v in got.items():
            if c in ("impounded_on", "sold_on"):
                assert v == dt.date.fromisoformat(exp[c]).strftime("%d-%m-%Y"), (case_id, c)
            elif c == "surplus_to_local_fund_on":
                continue
            elif c.startswith(("c_", "e_", "f_")):
                assert v == _rs(exp[c]), (case_id, c)
            else:
                assert v == exp[c], (case_id, c)
    # by hand (tests/golden/expected/owner_accounts.csv): G06 balance 4,850; G05 surplus 3,000 to the
    # DM, received by him on 14-08-2026, credited to the local fund on 14-08-2026 + 6 months + 1 day
    # = 15-02-2027 (R2: the six months run from his receipt, s.18(5)).
    g06 = figures((out / "owner_account_G06.html").read_text(encoding="utf-8"))
    assert (g06["f_balance_to_owner"], g06["e_proceeds"], g06["heads_returned"]) == ("Rs 4,850.00", "Rs 12,000.00", "1")
    g05 = (out / "owner_account_G05.html").read_text(encoding="utf-8")
    assert figures(g05)["f_surplus_to_dm"] == "Rs 3,000.00"
    assert figures(g05)["surplus_to_local_fund_on"] == "15-02-2027"
    assert "17(4)" not in g05 and "balance paid to the owner" not in g05


def test_a_release_receipt_adds_up_what_was_paid(golden_papers):
    out, _ = golden_papers
    # R00: fines 800 + charges 400 + security D2 1,500 = 2,700; one head delivered.
    r00 = figures((out / "release_receipt_R00.html").read_text(encoding="utf-8"))
    assert (r00["fines_paid"], r00["charges_paid"], r00["security_deposited"], r00["total_received"],
            r00["heads_delivered"]) == ("Rs 800.00", "Rs 400.00", "Rs 1,500.00", "Rs 2,700.00", "1")


def test_scope_by_case_pound_and_dates(golden_db, tmp_path):
    from pipeline.read.database import connect

    con = connect(golden_db / "pound.duckdb")
    try:
        by_case = write_papers(con, tmp_path / "a", Scope(cases=("G05",)))
        by_pound = write_papers(con, tmp_path / "b", Scope(pound="PA", first=dt.date(2026, 12, 1)))
        by_days = write_papers(con, tmp_path / "c", Scope(first=dt.date(2026, 8, 7), last=dt.date(2026, 8, 7)))
    finally:
        con.close()
    # G05's surplus credited before the DM's six months ended (R21): its memo, to the DM's accounts section
    # and its auction SA1 of 11-08, a day early (R25): its memo, to the officer who held it (S1)
    assert sorted(w.paper.name for w in by_case) == ["findings_memo_S1_2026-08",
                                                     "findings_memo_accounts-DM-Dist_2026-10", "notice_G05",
                                                     "owner_account_G05", "police_report_G05"]
    assert sorted(w.paper.name for w in by_pound) == ["notice_G14", "police_report_G14", "release_receipt_R15"]
    assert sorted(w.paper.name for w in by_days) == ["notice_G05", "police_report_G05"]


# --- triggers and their near-miss twins, on small typed bundles ----------------------------

def test_claimed_one_day_before_the_report_day_gets_no_police_report(tmp_path):
    # impounded 01-10, w = 7: claim window to 08-10, report day 09-10.
    rel = {"case_id": "", "head_count": 1, "basis": "s12_payment", "fines_paid": "600", "charges_paid": "1600",
           "receipt_signed": "yes"}
    written = _papers(tmp_path,
                      impoundments=[case("C1"), case("C2", owner_id="O2")],
                      releases=[{**rel, "release_id": "R1", "case_id": "C1", "released_on": "2026-10-08"},
                                {**rel, "release_id": "R2", "case_id": "C2", "released_on": "2026-10-09"}])
    assert names(written, "police_report") == ["police_report_C2"]
    assert names(written, "notice") == ["notice_C2"]


def test_no_police_report_before_the_report_day_has_come(tmp_path):
    # as of 30-11: impounded 22-11 reaches its report day (30-11); impounded 23-11 does not (01-12).
    written = _papers(tmp_path, impoundments=[case("C1", impounded_on="2026-11-22"),
                                              case("C2", impounded_on="2026-11-23", owner_id="O2")])
    assert names(written, "police_report") == ["police_report_C1"]


def test_an_owner_account_only_for_an_accepted_sale(tmp_path):
    sale = {"path": "s17_refusal", "sale_on": "2026-10-20", "head_offered": 1, "bid_amount": "9000",
            "conducted_by": "SO1", "sale_expenses": "100"}
    written = _papers(tmp_path, impoundments=[case("C1"), case("C2", owner_id="O2")],
                      sales=[{**sale, "sale_id": "S1", "case_id": "C1", "head_sold": 1, "accepted": "yes"},
                             {**sale, "sale_id": "S2", "case_id": "C2", "head_sold": 0, "accepted": "no"}])
    assert names(written, "owner_account") == ["owner_account_C1"]
    page = (tmp_path / "owner_account_C1.html").read_text(encoding="utf-8")
    assert "Manjunath K" in page          # the sale officer by name, from officials


def test_a_finding_decided_leaves_the_memo(tmp_path):
    # Two cases never reported (S15-REPORT-MISSING, event on the report day); one is decided.
    written = _papers(tmp_path, impoundments=[case("C1", impounded_on="2026-10-01"),
                                              case("C2", impounded_on="2026-10-02", owner_id="O2")],
                      finding_reviews=[{"rule_id": "S15-REPORT-MISSING", "subject_id": "C2",
                                        "reviewed_on": "2026-11-15", "reviewed_by": "DM", "decision": "explained"}])
    assert names(written, "findings_memo") == ["findings_memo_PK1_2026-10"]       # P1's pound-keeper's
    memo = (tmp_path / "findings_memo_PK1_2026-10.html").read_text(encoding="utf-8")
    assert 'data-key="S15-REPORT-MISSING|C1"' in memo and 'data-key="S15-REPORT-MISSING|C2"' not in memo


def test_register_text_is_inert_and_kannada_is_intact(tmp_path):
    written = _papers(tmp_path, impoundments=[case("C1", owner_name="ಮಹದೇವಪ್ಪ", owner_village="ಹುಣಸೂರು",
                                                   description='<script>alert("x")</script> & <b>brown</b>',
                                                   place_of_seizure="ಹುಣಸೂರು ಸಂತೆ")])
    assert names(written, "police_report") == ["police_report_C1"]
    page = (tmp_path / "police_report_C1.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "<b>brown</b>" not in page
    assert "&lt;script&gt;" in page
    assert "ಮಹದೇವಪ್ಪ" in page and "ಹುಣಸೂರು ಸಂತೆ" in page
    assert '<meta charset="utf-8">' in page


def test_a_receipt_reads_as_a_sentence_with_or_without_a_description(tmp_path):
    rel = {"head_count": 3, "basis": "s12_payment", "fines_paid": "600", "charges_paid": "1600",
           "receipt_signed": "yes", "released_on": "2026-10-03"}
    _papers(tmp_path, impoundments=[case("C1", head_count=3, description="Three bullocks"), case("C2", owner_id="O2")],
            releases=[{**rel, "release_id": "R1", "case_id": "C1"}, {**rel, "release_id": "R2", "case_id": "C2",
                                                                     "head_count": 1}])
    def sentence(release):
        page = (tmp_path / f"release_receipt_{release}.html").read_text(encoding="utf-8")
        return " ".join(unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "Case C1: 3 head of cattle (Three bullocks) impounded on 01-10-2026; owner Owner O1." in sentence("R1")
    assert "Case C2: 1 head of cattle impounded on 01-10-2026; owner Owner O2." in sentence("R2")


def test_templates_of_a_district_replace_the_package_s(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notice.html.j2").write_text("<p>ಸೂಚನೆ {{ row.case_id }} {{ row.notice_claim_ends_on | day }}</p>",
                                         encoding="utf-8")
    con = built_rows(impoundments=[case("C1", impounded_on="2026-11-01")])
    try:
        written = write_papers(con, tmp_path / "out", Scope(), templates=mine)
    finally:
        con.close()
    # 01-11 + 7 + 1 = report day 09-11, passed with no report recorded: the papers are made on the
    # accounts' date, 30-11, and the notice counted from it: claim to 07-12
    assert (tmp_path / "out" / "notice_C1.html").read_text(encoding="utf-8") == "<p>ಸೂಚನೆ C1 07-12-2026</p>"
    assert names(written, "police_report") == ["police_report_C1"]     # the rest from the package


# --- the command ---------------------------------------------------------------------------

def test_pound_documents_writes_the_pages_and_the_index(golden_db, tmp_path, run_cli):
    code, out, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "p",
                             "--pound", "PB", "--from", "2026-12-01", "--to", "2026-12-31")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "p").glob("*.html")) == [
        "findings_memo_K2_2026-12.html", "index.html", "notice_G04.html", "police_report_G04.html"]
    assert str(tmp_path / "p" / "index.html") in out
    # one line for the whole, not one per page
    assert out.splitlines()[0] == (f"wrote 3 papers into {tmp_path / 'p'} (findings memo 1, notice 1, police report 1)")


def test_pound_documents_mistakes_are_one_line(golden_db, tmp_path, run_cli):
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "p",
                           "--from", "2026-12-31", "--to", "2026-12-01")
    assert code == 1 and "--from 2026-12-31 is after --to 2026-12-01" in err
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "p",
                           "--templates", tmp_path / "nowhere")
    assert code == 1 and "is not a folder of templates" in err and "Traceback" not in err
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "p", "--pound", "P1")
    assert code == 1 and "no pound 'P1'; the database has PA, PB" in err
    code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / "p",
                           "--case", "G00", "--case", "G-404")
    assert code == 1 and "no case 'G-404' in the accounts" in err and "'G00'" not in err
    assert "for example G00" in err                 # how the register writes its case ids
    assert not (tmp_path / "p").exists()
    # a case written in other letters is the database's case, as a pound or a local authority is
    for name, written in (("lower", "g00"), ("upper", "G00")):
        code, _, err = run_cli("documents", "--db", golden_db / "pound.duckdb", "--out", tmp_path / name, "--case", written)
        assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "lower").iterdir()) == sorted(p.name for p in (tmp_path / "upper").iterdir())
    assert len(list((tmp_path / "upper").iterdir())) > 1          # G00's papers and their index


def test_a_database_built_before_the_papers_says_to_rebuild(golden_db, tmp_path, run_cli):
    import shutil

    import duckdb

    old = tmp_path / "old.duckdb"
    shutil.copy(golden_db / "pound.duckdb", old)
    con = duckdb.connect(str(old))
    con.execute("DROP VIEW doc_police_reports")          # a view now, computed when the papers read it
    con.close()
    code, _, err = run_cli("documents", "--db", old, "--out", tmp_path / "p")
    assert code == 1 and "no table doc_police_reports" in err and "pound build" in err


# --- twins on one small build ----------------------------------------------------------------
# The cases of the tests below, each under an id and an owner of its own (an owner's cases share the
# security s.13 holds of him), are built together once for the module (`twins`): no row of one case
# reads another's, and each test reads its own case's paper alone.

PROCLAIMED = {"proclaimed": ("C1", "2026-10-11"), "not-recorded": ("C2", "")}
EXPENSES = {"a-rejected-auction-first": ("C3", True), "one-auction": ("C4", False)}
PAYMENTS = {"paid-short": ("C5", "R1", "400", "s12_payment"), "paid-in-full": ("C6", "R2", "600", "s12_payment"),
            "under-protest": ("C7", "R3", "", "s16_protest")}
S17_BALANCES = {"taken-on-its-last-day": ("C8", "3400", "2026-10-12", 1), "part-taken": ("C9", "1000", "2026-10-06", 1),
                "not-taken": ("C10", "", "", 1), "not-taken-a-head-returned": ("C11", "", "", 2)}


def _case(case_id: str, **more) -> dict:
    """A case of the twins, its owner its own."""
    return case(case_id, owner_id=f"O{case_id[1:]}", **more)


def _report(case_id: str, **days) -> dict:
    return {"case_id": case_id, "reported_on": "2026-10-09", "notice_on": "2026-10-10", **days}


def _twin_rows() -> dict[str, list[dict]]:
    """The rows of every twin's case."""
    rows: dict[str, list[dict]] = {"impoundments": [], "police_reports": [], "sales": [], "releases": []}
    for case_id, proclaimed in PROCLAIMED.values():
        rows["impoundments"].append(_case(case_id))
        rows["police_reports"].append(_report(case_id, proclamation_on=proclaimed))
    sale = {"path": "s17_refusal", "head_offered": 1, "bid_amount": "9000", "conducted_by": "SO1"}
    for case_id, rejected_first in EXPENSES.values():
        rows["impoundments"].append(_case(case_id))
        if rejected_first:
            rows["sales"].append({**sale, "sale_id": "S1", "case_id": case_id, "sale_on": "2026-10-18", "head_sold": 0,
                                  "accepted": "no", "sale_expenses": "50"})
        rows["sales"].append({**sale, "sale_id": "S2" if rejected_first else "S3", "case_id": case_id,
                              "sale_on": "2026-10-20", "head_sold": 1, "accepted": "yes", "sale_expenses": "100"})
    for case_id, release_id, charges, basis in PAYMENTS.values():
        rows["impoundments"].append(_case(case_id))
        rel = {"release_id": release_id, "case_id": case_id, "released_on": "2026-10-03", "head_count": 1,
               "basis": basis, "receipt_signed": "yes"}
        rel |= {"fines_paid": "600", "charges_paid": charges} if basis == "s12_payment" else {"protest_deposit": "1200"}
        rows["releases"].append(rel)
    for n, (case_id, paid, paid_on, heads) in enumerate(S17_BALANCES.values(), start=4):
        rows["impoundments"].append(_case(case_id, head_count=heads))
        rows["sales"].append({"sale_id": f"S{n}", "case_id": case_id, "path": "s17_refusal", "sale_on": "2026-10-05",
                              "head_offered": 1, "head_sold": 1, "bid_amount": "5000", "accepted": "yes",
                              "conducted_by": "SO1", "balance_paid": paid, "balance_paid_on": paid_on,
                              "balance_receipt_signed": "yes" if paid else ""})
        if heads == 2:
            rows["releases"].append({"release_id": "R4", "case_id": case_id, "released_on": "2026-10-05",
                                     "head_count": 1, "basis": "s17_remainder", "receipt_signed": "yes"})
    return rows


@pytest.fixture(scope="module")
def twins(tmp_path_factory) -> dict[str, Path]:
    """The papers of every twin's case as of 30-11-2026, written once for the module from one build:
    {paper name: its page} (read only)."""
    written = _papers(tmp_path_factory.mktemp("twins"), **_twin_rows())
    return {w.paper.name: w.path for w in written}


def _words(path: Path) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))).split())


@pytest.mark.parametrize("case_id, proclaimed", list(PROCLAIMED.values()), ids=list(PROCLAIMED))
def test_the_notice_and_report_say_what_the_register_records_of_them(twins, case_id, proclaimed):
    """A report made on 09-10 names the notice the register records as displayed on 10-10 as
    recorded (the report came first); the notice's proclamation line carries the day the register
    records, and is left to fill in when it records none; the memo says the day it is issued."""
    text = {name: _words(path) for name, path in twins.items()}
    assert "of the notice, which the register records as displayed on 10-10-2026" in text[f"police_report_{case_id}"]
    # a line for each proclamation, its place and day (R25); a file without market_proclamation_on records
    # one proclamation for both places
    if proclaimed:
        assert "In the village or area: proclamation made on 11-10-2026 (as the register records), by" in \
            text[f"notice_{case_id}"]
        assert ("At the market place near the place of seizure: proclamation made on 11-10-2026 (as the register "
                "records), by") in text[f"notice_{case_id}"]
    else:
        assert "In the village or area: proclamation made on (date), by" in text[f"notice_{case_id}"]
        assert "At the market place near the place of seizure: proclamation made on (date), by" in \
            text[f"notice_{case_id}"]
    memo = next(v for k, v in text.items() if k.startswith("findings_memo"))
    assert "Issued: 30-11-2026" in memo


def test_a_s17_account_gives_the_security_its_own_line_outside_item_c(golden_papers):
    """R31: item (c) of s.17(3) is the fines and charges payable, nothing else; the security s.17(2)
    deducts with them is a line of its own on an s.17 account, and an unclaimed sale's (s.15), which
    takes none, says nothing of it."""
    out, _ = golden_papers
    s17 = (out / "owner_account_G07.html").read_text(encoding="utf-8")
    s15 = (out / "owner_account_G05.html").read_text(encoding="utf-8")
    own_line = "Security under section 13, deducted from the proceeds with the fines and charges (s.17(2))"
    assert "Fines and charges payable</th>" in s17 and own_line in s17
    assert "Fines and charges payable</th>" in s15 and "Security under section 13" not in s15


@pytest.mark.parametrize("case_id, rejected_first", list(EXPENSES.values()), ids=list(EXPENSES))
def test_an_account_names_the_auctions_its_expenses_of_sale_hold(twins, case_id, rejected_first):
    """The expenses of sale hold every attempt's (a rejected bid's too): when more than one
    auction's, the account names them, so that Rs 150.00 is not read as the one sale's Rs 100.00."""
    page = _words(twins[f"owner_account_{case_id}"])
    if rejected_first:
        assert "expenses of sale, of the auctions S1 of 18-10-2026, S2 of 20-10-2026 Rs 150.00" in page
    else:
        assert "expenses of sale Rs 100.00" in page and "of the auctions" not in page


@pytest.mark.parametrize("release_id, charges, basis", [v[1:] for v in PAYMENTS.values()], ids=list(PAYMENTS))
def test_a_receipt_on_payment_shows_what_was_payable_beside_what_was_paid(twins, release_id, charges, basis):
    """A release on payment (s.12(1)) shows the fines and charges payable for the heads delivered
    beside those paid, so a receipt paid short says so (Rs 400.00 of Rs 600.00); a delivery under
    protest (s.16(1)) has nothing payable to show."""
    figs = figures(twins[f"release_receipt_{release_id}"].read_text(encoding="utf-8"))
    if basis == "s12_payment":
        assert (figs["fines_due"], figs["fines_paid"]) == ("Rs 600.00", "Rs 600.00")
        assert (figs["charges_due"], figs["charges_paid"]) == ("Rs 600.00", f"Rs {charges}.00")
    else:
        assert "fines_due" not in figs and "charges_due" not in figs


@pytest.mark.parametrize("case_id, paid, paid_on, heads", list(S17_BALANCES.values()), ids=list(S17_BALANCES))
def test_an_s17_account_has_the_owner_receive_only_the_balance_recorded_paid(twins, case_id, paid, paid_on, heads):
    """R19 (s.17(4), s.18(5)): each case sold under s.17 on 05-10-2026, 1 head for Rs 5,000 (feeding 5 x 200, fine
    600: a balance of Rs 3,400). The receipt says "received" only for what the register records paid; the rest is
    held for the owner to 12-10-2026 (sold + 7 days) and then goes to the District Magistrate."""
    page = _words(twins[f"owner_account_{case_id}"]).replace(" ;", ";").replace(" .", ".")
    held = {"3400": 0, "1000": 2400, "": 3400}[paid]
    if heads == 2:      # both heads' feeding to the sale day (2 x 200 x 5) and fines (2 x 600); no security at P1
        held = 5000 - 2000 - 1200
    if not held:
        assert "I have received the balance of Rs 3,400.00 according to this account." in page
        assert "held for the owner" not in page
    else:
        assert f"held for the owner until 12-10-2026; not taken by then, sent to the District Magistrate (s.18(5)) " \
               f"Rs {held:,}.00" in page
        assert f"The balance of Rs {held:,}.00 not yet taken is held for the owner until 12-10-2026." in page
        if paid:
            assert "of which paid to the owner Rs 1,000.00" in page
            assert "I have received the balance of Rs 1,000.00 according to this account." in page
        elif heads == 2:
            assert "I have received the 1 head of cattle remaining according to this account." in page
        else:
            assert "I have received" not in page and "Receipt (section 17(4))" not in page


# (a build of its own: a file that has market_proclamation_on says of each of its rows whether the market's
# proclamation was made, where a file without it records one proclamation for both places, as the twins' does)
def test_the_notice_has_a_line_for_each_proclamation_and_its_day(tmp_path):
    """R25: the proclamation in the village or area and the one at the market place are two, each with
    its place and the day the register records; the owner's days run from the later (12-10): to 19-10."""
    written = _papers(tmp_path, impoundments=[case(place_of_seizure="Kabini canal road")],
                      police_reports=[{"case_id": "C1", "reported_on": "2026-10-09", "notice_on": "2026-10-10",
                                       "proclamation_on": "2026-10-11", "market_proclamation_on": "2026-10-12"}])
    notice = next(w for w in written if w.paper.name == "notice_C1").path.read_text(encoding="utf-8")
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", notice)).split())
    assert "In the village or area: proclamation made on 11-10-2026 (as the register records), by" in text
    assert "At the market place near Kabini canal road: proclamation made on 12-10-2026 (as the register records), by" in text
    assert figures(notice)["notice_claim_ends_on"] == "19-10-2026"


# The notice's day, 10-10, against s.13's notification for the pound's taluk: Plain (P1's) has none,
# Notified (P2's) one in force; one taluk's notification cannot end on three days at once, so each pound
# after them is in a taluk of its own, whose notification ended the day before (Lapsed), ends on the day
# (Lapsing) or ends the day after (Later). Each case is one pound's, with an owner of its own; all five are
# built together once for the module (`s13_notices`), and each test reads its own case's notice alone.
S13_NOTICES = {   # case, pound, its taluk, the end of s.13's notification there (None: none), the notice says so
    "taluk-not-notified": ("C1", "P1", "Plain", None, False),
    "notified": ("C2", "P2", "Notified", "", True),
    "notification-ended-the-day-before-the-notice": ("C3", "P3", "Lapsed", "2026-10-09", False),
    "notification-ends-on-the-notice-day": ("C4", "P4", "Lapsing", "2026-10-10", True),
    "notification-ends-the-day-after": ("C5", "P5", "Later", "2026-10-11", True),
}


def _s13_rows() -> dict[str, list[dict]]:
    """The rows of S13_NOTICES' cases: their pounds and notifications (s.13's alone), each case impounded
    at its pound (2 head), reported on 09-10 and its notice shown and proclaimed on 10-10."""
    from helpers import REFERENCE

    known = {p["pound_id"] for p in REFERENCE["pounds"]}
    return {
        "pounds": [*REFERENCE["pounds"], *({"pound_id": pound, "name": f"{taluk} Pound", "local_authority_id": "LA2",
                                            "taluk": taluk, "district": "Mysuru", "pound_keeper_id": "PK2"}
                                           for _, pound, taluk, _, _ in S13_NOTICES.values() if pound not in known)],
        "notifications": [{"section": "13", "taluk": taluk, "effective_from": "2025-01-01", "effective_to": s13_to,
                           "gazette_ref": f"G13-{taluk}"}
                          for _, _, taluk, s13_to, _ in S13_NOTICES.values() if s13_to is not None],
        "impoundments": [case(case_id, pound_id=pound, head_count=2, owner_id=f"O{case_id[1:]}")
                         for case_id, pound, _, _, _ in S13_NOTICES.values()],
        "police_reports": [{"case_id": case_id, "reported_on": "2026-10-09", "notice_on": "2026-10-10",
                            "proclamation_on": "2026-10-10"} for case_id, *_ in S13_NOTICES.values()],
    }


@pytest.fixture(scope="module")
def s13_notices(tmp_path_factory) -> dict[str, Path]:
    """The papers of S13_NOTICES' cases as of 30-11-2026, written once for the module from one build:
    {paper name: its page} (read only)."""
    written = _papers(tmp_path_factory.mktemp("s13_notices"), **_s13_rows())
    return {w.paper.name: w.path for w in written}


@pytest.mark.parametrize("case_id, told", [(v[0], v[4]) for v in S13_NOTICES.values()], ids=list(S13_NOTICES))
def test_the_notice_tells_the_owner_of_the_declaration_and_security_where_s13_applies(s13_notices, case_id, told):
    """R31: where s.13 is notified for the pound's taluk on the notice's day (10-10), the s.15(2) notice says a
    declaration and the security (2 head x Rs 1,000) are needed to claim the cattle."""
    text = _words(s13_notices[f"notice_{case_id}"])
    said = "the owner must also make a declaration that they are his and deposit the security the section requires"
    assert (said in text) == told, text
    if told:
        assert "Rs 2,000.00 for these cattle (section 13(1))" in text
