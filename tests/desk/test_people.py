"""People and roles (people.py): pound users add keeps only an argon2id hash; with --users each
request carries a person's name and password; a clerk sees no button to decide, close or reopen and
a forged POST of one is refused 403; an auditor cannot load, add or remove; the DM's close is signed
with the DM's own name, whatever the form says; the month's history names who did each step."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

MONTH = "2026-11"
DM = "K. Ramesh, District Magistrate, Mysuru"
PASSWORDS = {"Asha (clerk)": "clerk-password-1", DM: "dm-password-12", "Audit Officer": "auditor-password-1"}


def auth(name: str, password: str | None = None) -> dict:
    raw = f"{name}:{password or PASSWORDS[name]}".encode()
    return {"Authorization": "Basic " + base64.b64encode(raw).decode()}


def people_made(shared) -> Path:
    """The people file `pound users add` writes for the clerk, the DM and the auditor (argon2id hashing
    each password is made slow on purpose), made once a session (tests/shared.py; read only)."""
    def make(folder: Path) -> None:
        from shared import quietly

        from pipeline.cli import main

        pw = folder / "pw"
        for name, role in (("Asha (clerk)", "clerk"), (DM, "dm"), ("Audit Officer", "auditor")):
            pw.write_text(PASSWORDS[name] + "\n", encoding="utf-8")
            code, said = quietly(main, ["users", "add", name, "--role", role, "--users", str(folder / "people.json"),
                                        "--password-file", str(pw)])
            assert code == 0, said
        pw.unlink()

    return shared.once("desk-people", make) / "people.json"


@pytest.fixture
def people_file(shared, tmp_path):
    """A copy (its mode too) of the session's people file (people_made), the test's own to change."""
    f = tmp_path / "people.json"
    shutil.copy2(people_made(shared), f)
    return f


@pytest.fixture
def desk(desk_of, people_file, stand_ins):
    """A desk with --users, its reports drawn and a review's pages printed by a stand-in, on 06-12-2026
    (conftest.py stand_ins)."""
    from pipeline.desk import people

    return desk_of(people=people.read(people_file))


def page_as(d, name: str) -> str:
    r = d.get(f"/?month={MONTH}", headers=auth(name))
    assert r.status_code == 200
    return r.text


def post_as(d, name: str, path: str, **data):
    tokens = d.__dict__.setdefault("tokens_of", {})      # a token the page drawn for `name` gave, once a desk
    if name not in tokens:
        tokens[name] = re.search(r'name="token" value="([^"]+)"', page_as(d, name)).group(1)
    token = tokens[name]
    return d.post(path, data={"token": token, "month": MONTH, **data}, headers=auth(name),
                  content_type="multipart/form-data")


def test_the_file_keeps_only_argon2id_hashes(people_file, run_cli, tmp_path):
    text = people_file.read_text(encoding="utf-8")
    assert all(pw not in text for pw in PASSWORDS.values())
    assert [p["hash"][:10] for p in json.loads(text)["people"]] == ["$argon2id$"] * 3
    assert people_file.stat().st_mode & 0o077 == 0
    short = tmp_path / "short"
    short.write_text("short\n", encoding="utf-8")
    code, _, err = run_cli("users", "add", "X", "--role", "clerk", "--users", people_file, "--password-file", short)
    assert code != 0 and "at least 10 characters" in err
    code, _, err = run_cli("users", "add", "X", "--role", "boss", "--users", people_file, "--password-file", short)
    assert code != 0


def test_each_role_sees_its_buttons_and_the_server_refuses_the_rest(desk):
    d = desk
    assert d.get("/").status_code == 401
    assert d.get("/", headers=auth(DM, "wrong-password")).status_code == 401
    assert d.get("/", headers=auth("Nobody", "whatever-password")).status_code == 401

    clerk = page_as(d, "Asha (clerk)")
    assert "Load the registers</button>" in clerk and "Add register files</button>" in clerk
    assert "Close the month</button>" not in clerk and "Reopen the month</button>" not in clerk
    for action in ("close", "decide", "reopen"):
        assert post_as(d, "Asha (clerk)", f"/do/{action}", by="Asha", reason="x").status_code == 403, action

    auditor = page_as(d, "Audit Officer")
    assert "Load the registers</button>" not in auditor and "Add register files" not in auditor
    assert "Verify</button>" in auditor
    assert post_as(d, "Audit Officer", "/do/load").status_code == 403
    assert post_as(d, "Audit Officer", "/do/review").status_code == 403
    assert post_as(d, "Audit Officer", "/remove", file="registers/impoundments.csv").status_code == 403
    assert post_as(d, "Audit Officer", "/add").status_code == 403
    assert not d.places.db.exists()

    dm = page_as(d, DM)
    assert "Close the month</button>" in dm and 'id="by"' not in dm and f'id="signed-by">{DM}<' in dm


def _workbook(*sheets: str) -> bytes:
    import io

    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name in sheets:
        wb.create_sheet(name).append(["x"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_a_clerk_adds_no_decisions_and_no_one_adds_a_reference_table_from_the_desk(desk):
    # decisions are the DM's: a clerk's file of them (a CSV, or a workbook's sheet) is refused, the
    # DM's own is taken (its twin); a workbook carrying a reference table (the rates, say) is refused
    # whoever adds it, and nothing of either is saved
    import io

    d = desk
    registers = d.places.bundle / "registers"
    before = sorted(p.name for p in registers.iterdir())
    header = b"finding_rule_id,subject_id,review_date,reviewed_by,decision\n"
    for name, body in (("finding_reviews_2026-11_x.csv", header), ("keeper_P01_2026-11.xlsx", _workbook("releases", "finding_reviews"))):
        r = post_as(d, "Asha (clerk)", "/add", file=(io.BytesIO(body), name))
        shown = d.get(r.headers["Location"], headers=auth("Asha (clerk)")).text
        assert "is the District Magistrate&#39;s: only a person with the role dm may add a file holding it" in shown, name
    for who in ("Asha (clerk)", DM):
        r = post_as(d, who, "/add", file=(io.BytesIO(_workbook("releases", "rates")), "keeper_P01_2026-11.xlsx"))
        shown = d.get(r.headers["Location"], headers=auth(who)).text
        assert "its sheet &#39;rates&#39; is a reference table, kept in the bundle&#39;s reference/ folder" in shown, who
    assert sorted(p.name for p in registers.iterdir()) == before
    r = post_as(d, DM, "/add", file=(io.BytesIO(header), "finding_reviews_2026-11_x.csv"))
    assert r.status_code == 303 and (registers / "finding_reviews_2026-11_x.csv").read_bytes() == header
    # nor does a clerk put another file in its place, nor take it out before it is loaded; the DM may
    r = post_as(d, "Asha (clerk)", "/add", file=(io.BytesIO(_workbook("releases")), "dm.xlsx"))
    assert r.status_code == 303
    dm_book = _workbook("finding_reviews")
    assert post_as(d, DM, "/add", file=(io.BytesIO(dm_book), "dm.xlsx")).status_code == 303
    r = post_as(d, "Asha (clerk)", "/add", file=(io.BytesIO(_workbook("releases")), "dm.xlsx"))
    shown = d.get(r.headers["Location"], headers=auth("Asha (clerk)")).text
    assert "registers/dm.xlsx, a file of decisions it would replace, is the District Magistrate&#39;s" in shown
    assert (registers / "dm.xlsx").read_bytes() == dm_book
    r = post_as(d, "Asha (clerk)", "/remove", file="registers/finding_reviews_2026-11_x.csv")
    shown = d.get(r.headers["Location"], headers=auth("Asha (clerk)")).text
    assert "a file of decisions is the District Magistrate&#39;s: only a person with the role dm may remove it" in shown
    assert (registers / "finding_reviews_2026-11_x.csv").exists()
    assert post_as(d, DM, "/remove", file="registers/finding_reviews_2026-11_x.csv").status_code == 303
    assert not (registers / "finding_reviews_2026-11_x.csv").exists()


def test_a_token_is_good_only_for_the_person_whose_page_it_came_from(desk):
    # the auditor's page's token, sent with the DM's name and password (a browser that remembers them,
    # led by a page the auditor made): refused; the DM's own token is taken (its twin)
    d = desk
    theirs = re.search(r'name="token" value="([^"]+)"', page_as(d, "Audit Officer")).group(1)
    r = d.post("/do/reopen", data={"token": theirs, "month": MONTH, "reason": "forged"}, headers=auth(DM))
    assert r.status_code == 403 and "no valid token" in r.text and d.desk.job is None
    mine = re.search(r'name="token" value="([^"]+)"', page_as(d, DM)).group(1)
    r = d.post("/do/verify", data={"token": mine, "month": MONTH}, headers=auth(DM))
    assert r.status_code == 303 and d.desk.wait().action == "verify"


def test_the_dms_close_is_signed_with_the_dms_name_and_the_history_names_each(desk):
    d = desk
    for name, action in (("Asha (clerk)", "load"), ("Asha (clerk)", "review")):
        assert post_as(d, name, f"/do/{action}").status_code == 303
        job = d.desk.wait()
        assert job.error is None, job.error
    # "Signed by" typed into a forged form is not taken: the DM logged in signs
    assert post_as(d, DM, "/do/close", by="Someone Else").status_code == 303
    job = d.desk.wait()
    assert job.error is None, job.error
    close = json.loads((job.result.result.folder / "close.json").read_text(encoding="utf-8"))
    assert close["closed_by"] == DM
    # verified with the close's own history line written after it (lines added since are its nature): intact
    assert post_as(d, "Audit Officer", "/do/verify").status_code == 303
    assert d.desk.wait().result.result.intact, "the history sealed with the close, a line added since, is intact"
    page = page_as(d, "Audit Officer")
    history = page[page.index('id="history-h"'):]
    done = [(who, what.strip()) for who, what in re.findall(r"<tr><td>[^<]*</td><td>([^<]+)</td>\s*<td>([^<]+)", history)
            if what.strip() != "rejected"]
    assert done == [("Asha (clerk)", "Load the registers"), ("Asha (clerk)", "Make the month&#39;s review"),
                    (DM, "Close the month"), ("Audit Officer", "Verify")]
    # the history is sealed with the close: lines added since are its nature, a line of before rewritten is not
    assert [log["file"] for log in close["logs"]] == ["closes/desk_history.jsonl"]
    log = d.places.bundle / "closes" / "desk_history.jsonl"
    log.write_text(log.read_text(encoding="utf-8").replace("Asha (clerk)", "Someone", 1), encoding="utf-8")
    assert post_as(d, "Audit Officer", "/do/verify").status_code == 303
    verified = d.desk.wait().result.result
    assert not verified.intact and any("log changed since the close: closes/desk_history.jsonl" in ln
                                       for ln in verified.verdict())


@pytest.mark.browser
@pytest.mark.xdist_group("desk")
def test_each_roles_page_is_accessible(desk, browser):
    from test_month_in_browser import accessible

    d = desk
    for name in (DM, "Asha (clerk)", "Audit Officer"):
        page, _, errors = browser.open(d.url + f"?month={MONTH}", charts=False, context_args={
            "bypass_csp": True, "http_credentials": {"username": name, "password": PASSWORDS[name]}})
        assert page.inner_text("#person") == name
        accessible(page, f"the page of {name}")
        assert errors == []
        page.context.close()
