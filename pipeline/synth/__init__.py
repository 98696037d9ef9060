"""`pound synth`: realistic registers at any scale, with planted violations and their key.

The generator is vectorised (numpy): one array per column of the case table,
outcomes chosen by masks, dates as day numbers. A clean bundle passes every
rule; then a share of the cases (violation_rate) each get one planted
violation of one of 29 rule ids, listed in BUNDLE/planted.csv as (rule_id,
subject_id). `pound run BUNDLE --as-of <the last day of the last month>` must
find exactly those, which measures the rules' recall and precision.

Figures and their sources (see the project's docs/design.md, "Synthetic data"):
- fines Rs 600 per head of cattle and Rs 300 per calf, notified under s.10 in May
  2014 (reported by The Hindu, 30 Nov 2019; Deccan Herald 2025 for BBMP);
- feeding about Rs 200 per head per day (Udaipur and pre-2023 Chennai pound
  charges; no Karnataka figure was found), revised part-way through the period;
- unclaimed share 5-30 % by pound (urban pounds; Sambalpur's 62 % is the outlier);
- auction prices Rs 5,000-15,000 per adult bovine (Tiruchi about Rs 9,100, Kozhikode
  about Rs 15,000 per head), less for calves, sheep and goats;
- herds mostly 1-3 head in towns, occasionally large (s.14 speaks of more than 20);
- species mix by district from the 20th Livestock Census 2019 (district tables
  of Karnataka: e.g. Belagavi buffalo-heavy, Tumakuru sheep-heavy, Dakshina
  Kannada almost all cattle);
- a monsoon peak in impoundings (crops standing in July-September).
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.core.errors import PoundError
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import BY_NAME

EPOCH = dt.date(1970, 1, 1)
CLASSES = ("cattle", "calf", "buffalo", "sheep", "goat", "ass", "pig", "horse", "camel", "elephant", "mule")
CATTLE, CALF, BUFFALO, SHEEP, GOAT, ASS, PIG, HORSE, CAMEL, ELEPHANT, MULE = range(11)
SHORT = np.zeros(len(CLASSES), bool)
SHORT[[SHEEP, ASS]] = True                               # s.15(1) proviso: three days

# Per class, in paise: fine (s.10), feeding per day before and after the revision, security (s.13),
# and the usual auction price per head. No rate is published for mules here: a mule case is
# how RATE-MISSING is planted.
FINE = np.array([600, 300, 600, 150, 150, 300, 300, 600, 800, 2000, 0]) * 100
FEED_OLD = np.array([200, 100, 200, 50, 50, 100, 100, 200, 300, 1000, 0]) * 100
FEED_NEW = np.array([250, 120, 250, 60, 60, 120, 120, 250, 350, 1200, 0]) * 100
SECURITY = np.array([1000, 500, 1000, 250, 250, 500, 500, 1000, 1500, 5000, 0]) * 100
PRICE_LOW = np.array([5000, 1500, 6000, 2500, 2500, 1500, 2000, 8000, 12000, 60000, 4000]) * 100
PRICE_HIGH = np.array([15000, 4000, 15000, 6000, 6000, 4000, 6000, 20000, 30000, 150000, 9000]) * 100
# A taluk may notify its own cattle rate (a named taluk wins over '*').
TALUK_CATTLE = (700 * 100, 225 * 100, 1500 * 100)

# District: weights of cattle, calf, buffalo, sheep, goat, ass, pig, horse, camel, elephant
# (20th Livestock Census 2019 district shares where known; the rest close to the state's mix).
DISTRICTS = {
    "Bengaluru Urban": (55, 14, 5, 9, 10, 1, 5, 1, 0, 0),
    "Belagavi": (22, 7, 34, 17, 17, 1, 1, 1, 0, 0),
    "Tumakuru": (23, 7, 4, 46, 18, 1, 1, 0, 0, 0),
    "Dakshina Kannada": (68, 20, 1, 0, 9, 0, 2, 0, 0, 0),
    "Mysuru": (45, 14, 6, 17, 15, 1, 1, 0, 0, 1),
    "Mandya": (44, 14, 9, 18, 13, 1, 1, 0, 0, 0),
    "Hassan": (47, 15, 5, 13, 17, 1, 2, 0, 0, 0),
    "Kalaburagi": (25, 8, 14, 25, 26, 1, 1, 0, 0, 0),
    "Ballari": (22, 7, 10, 40, 18, 1, 1, 1, 0, 0),
    "Dharwad": (30, 9, 25, 14, 20, 1, 1, 0, 0, 0),
    "Shivamogga": (52, 16, 8, 6, 15, 1, 2, 0, 0, 0),
    "Chitradurga": (20, 6, 5, 51, 16, 1, 1, 0, 0, 0),
    "Vijayapura": (20, 6, 22, 25, 25, 1, 1, 0, 0, 0),
    "Raichur": (22, 7, 14, 32, 23, 1, 1, 0, 0, 0),
    "Udupi": (70, 20, 2, 0, 7, 0, 1, 0, 0, 0),
    "Kolar": (38, 12, 3, 30, 15, 1, 1, 0, 0, 0),
    "Kodagu": (58, 18, 3, 1, 15, 0, 4, 0, 0, 1),
    "Chamarajanagar": (42, 13, 4, 22, 17, 1, 1, 0, 0, 0),
    "Haveri": (30, 9, 25, 16, 18, 1, 1, 0, 0, 0),
    "Davanagere": (30, 9, 12, 30, 17, 1, 1, 0, 0, 0),
}
FIRST = ["Ramesh", "Suresh", "Mahadeva", "Basavaraj", "Manjunath", "Lakshmi", "Savitha", "Nagaraj", "Shivanna",
         "Kempamma", "Puttaswamy", "Girish", "Anitha", "Mallikarjun", "Siddappa", "Rukmini", "Honnappa", "Yellamma",
         "Ravi", "Prakash", "Shobha", "Chandrashekar", "Veeresh", "Gowramma", "Dyamappa", "Fathima", "Abdul", "Mary"]
LAST = ["Gowda", "Naik", "Patil", "Hegde", "Shetty", "Reddy", "Kumar", "Rao", "Swamy", "Murthy", "Achar",
        "Kulkarni", "Desai", "Nadaf", "Pujari", "Hiremath", "Angadi", "Kamble", "Talawar", "Byadgi"]
# Buyers come from another pool than officials, so that a clean sale never looks like an official buying.
BUYER = ["Traders Co-op", "Sri Durga Livestock", "Hanuman Dairy", "Kaveri Farms", "Annapoorna Goshala",
         "Nandi Cattle Traders", "Mariamma Sheep Breeders", "Tungabhadra Agro", "Malnad Dairy Farm"]

PLANTABLE = (
    "REL-UNPAID", "REL-UNSIGNED", "REL-NO-DECLARATION", "REL-NO-SECURITY", "REL-PROTEST-SHORT", "REL-UNAUTHORISED",
    "SALE-OFFICIAL-BUYER", "S15-REPORT-MISSING", "S15-REPORT-LATE", "S15-REPORT-EARLY", "S15-NOTICE-MISSING",
    "S15-SALE-EARLY", "S15-SALE-OVERDUE", "S15-BID-REJECTED-UNRESOLVED", "S16-FOLLOW-UP-MISSING",
    "S13-FORFEIT-MISSED", "S13-FORFEIT-UNLAWFUL", "S13-REFUND-EARLY", "S13-SECURITY-UNAUTHORISED",
    "S17-OVERSALE", "S17-SHORTFALL-RETURNED", "S17-BALANCE-MISMATCH", "S14-FINE-EXCESS", "S14-NOT-ENFORCED",
    "S14-CLAUSE-II-SMALL-HERD", "S14-NOT-NOTIFIED", "RATE-MISSING", "DQ-SEIZED-AFTER-IMPOUNDED", "DQ-FUTURE-DATE",
)

S12, S16, S17, COURT, S15 = range(5)
NONE = -1                        # a blank date, amount or count in the typed frames


@dataclass
class SynthConfig:
    pounds: int = 12
    months: int = 12
    cases_per_month: int = 20
    seed: int = 1
    violation_rate: float = 0.02
    start: str | None = None          # YYYY-MM; default: the last month is the one before today

    def months_span(self) -> tuple[dt.date, dt.date]:
        if self.start:
            y, m = map(int, self.start.split("-"))
        else:
            today = dt.date.today()
            idx = today.year * 12 + today.month - 1 - self.months      # the last month is last month
            y, m = divmod(idx, 12)
            m += 1
        first = dt.date(y, m, 1)
        ly, lm = divmod(y * 12 + m - 1 + self.months, 12)
        end = dt.date(ly, lm + 1, 1) - dt.timedelta(days=1)
        return first, end


def day(d: dt.date) -> int:
    return (d - EPOCH).days


def add_months(days: np.ndarray, n: int) -> np.ndarray:
    """Day numbers plus n calendar months, clamped to the month's end (as DuckDB does)."""
    d = days.astype("datetime64[D]")
    months = d.astype("datetime64[M]")
    dom = (d - months).astype(np.int64)
    target = months + n
    length = ((target + 1).astype("datetime64[D]") - target.astype("datetime64[D]")).astype(np.int64)
    return (target.astype("datetime64[D]").astype(np.int64) + np.minimum(dom, length - 1)).astype(np.int64)


def iso(days: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    out = np.asarray(days, dtype=np.int64).astype("datetime64[D]").astype(str).astype(object)
    if valid is not None:
        out[~valid] = ""
    return out


def rupees(paise: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    p = np.asarray(paise, dtype=np.int64)
    whole = (p // 100).astype(str)
    frac = np.char.zfill((p % 100).astype(str), 2)
    out = np.char.add(np.char.add(whole, "."), frac).astype(object)
    if valid is not None:
        out[~valid] = ""
    return out


def ids(prefix: str, n: int, start: int = 1) -> np.ndarray:
    return np.char.add(prefix, np.char.zfill(np.arange(start, start + n).astype(str), 7)).astype(object)



class Generator:
    """Builds a bundle as typed frames (days as ints, money in paise, NONE = blank)."""

    def __init__(self, cfg: SynthConfig):
        if not 0 <= cfg.violation_rate <= 0.5:
            raise PoundError("--violation-rate must be between 0 and 0.5")
        self.cfg = cfg
        self.rng = np.random.default_rng(cfg.seed)
        self.first, self.end_date = cfg.months_span()
        self.start, self.end = day(self.first), day(self.end_date)
        self.planted: list[tuple[str, str]] = []
        self.t: dict[str, pd.DataFrame] = {}

    # ------------------------------------------------------------------ reference
    def reference(self) -> None:
        rng, n = self.rng, self.cfg.pounds
        names = list(DISTRICTS)
        nd = max(1, min(len(names), round(n / 6), n))
        self.districts = [names[i] for i in sorted(rng.permutation(len(names))[:nd])]
        district = np.sort(np.concatenate([np.arange(nd), rng.integers(0, nd, n - nd)]))
        taluk_of_pound = np.zeros(n, np.int64)
        taluks, taluk_district = [], []
        for d in range(nd):
            members = np.flatnonzero(district == d)
            k = max(1, int(np.ceil(len(members) / 2)))
            base = len(taluks)
            taluks += [f"{self.districts[d]} Taluk {j + 1}" for j in range(k)]
            taluk_district += [d] * k
            taluk_of_pound[members] = base + np.arange(len(members)) % k
        nt = len(taluks)
        self.taluks = np.array(taluks, dtype=object)
        self.s13 = rng.random(nt) < 0.3
        self.s14 = rng.random(nt) < 0.3
        self.s13[0] = self.s14[0] = True                 # every bundle has both kinds of taluk
        if nt > 1:
            self.s13[-1] = self.s14[-1] = False
        self.taluk_rate = (rng.random(nt) < 0.15) & (np.arange(nt) != nt - 1)
        self.pound_district, self.pound_taluk = district, taluk_of_pound
        self.pound_ids = ids("P", n)
        self.la_ids = ids("LA", n)
        self.unclaimed_share = rng.uniform(0.05, 0.30, n)
        self.keeper_name = np.array(self._names(n), dtype=object)
        self.sale_officer = ids("SO", nd)
        self.revision = int(add_months(np.array([self.start]), self.cfg.months // 2)[0])
        kinds = np.array(["corporation", "municipality", "town_panchayat", "gram_panchayat"], dtype=object)
        dn = np.array(self.districts, dtype=object)
        self.t["local_authorities"] = pd.DataFrame({
            "local_authority_id": self.la_ids, "name": np.char.add("Local authority of pound ", self.pound_ids.astype(str)),
            "kind": kinds[rng.choice(4, n, p=[0.1, 0.3, 0.2, 0.4])], "district": dn[district]})
        self.t["pounds"] = pd.DataFrame({
            "pound_id": self.pound_ids, "name": np.char.add(self.taluks[taluk_of_pound].astype(str), " pound"),
            "local_authority_id": self.la_ids, "taluk": self.taluks[taluk_of_pound], "district": dn[district],
            "pound_keeper_id": ids("PK", n)})
        officials = [pd.DataFrame({"person_id": ids("PK", n), "name": self.keeper_name, "role": "pound_keeper",
                                   "district": dn[district]}),
                     pd.DataFrame({"person_id": self.sale_officer, "name": self._names(nd, 100), "role": "sale_officer",
                                   "district": dn}),
                     pd.DataFrame({"person_id": ids("DM", nd), "name": np.char.add("District Magistrate ", dn.astype(str)),
                                   "role": "magistrate", "district": dn}),
                     pd.DataFrame({"person_id": ids("TH", nt), "name": np.char.add("Tahsildar ", self.taluks.astype(str)),
                                   "role": "tahsildar", "district": dn[np.array(taluk_district)]})]
        self.t["officials"] = pd.concat(officials, ignore_index=True)
        since, rev = day(dt.date(2014, 5, 1)), self.revision
        rows = []
        for c in range(len(CLASSES)):
            if c == MULE:
                continue
            rows.append((CLASSES[c], "*", since, rev - 1, FINE[c], FEED_OLD[c], SECURITY[c]))
            rows.append((CLASSES[c], "*", rev, NONE, FINE[c], FEED_NEW[c], SECURITY[c]))
        for tk in np.flatnonzero(self.taluk_rate):
            rows.append(("cattle", self.taluks[tk], since, NONE, *TALUK_CATTLE))
        self.t["rates"] = pd.DataFrame(rows, columns=["animal_class", "taluk", "effective_from", "effective_to",
                                                      "fine_per_head", "feeding_per_head_per_day", "security_per_head"])
        notes = [("13", self.taluks[i], day(dt.date(2012, 4, 1)), NONE, f"Notification 13/{i}") for i in np.flatnonzero(self.s13)]
        notes += [("14", self.taluks[i], day(dt.date(2012, 4, 1)), NONE, f"Notification 14/{i}") for i in np.flatnonzero(self.s14)]
        self.t["notifications"] = pd.DataFrame(notes, columns=["section", "taluk", "effective_from", "effective_to",
                                                               "gazette_ref"])

    @staticmethod
    def _names(n: int, offset: int = 0) -> list[str]:
        return [f"{FIRST[(i * 7 + 3) % len(FIRST)]} {LAST[(i * 11 + i // len(FIRST)) % len(LAST)]} "
                f"{chr(65 + i % 26)}{i // 26 or ''}" for i in range(offset, offset + n)]

    def rate(self, cls, taluk, on):
        """Fine, feeding per day and security (paise) in force for each (class, taluk, day)."""
        fine = FINE[cls].copy()
        feed = np.where(on >= self.revision, FEED_NEW[cls], FEED_OLD[cls])
        sec = SECURITY[cls].copy()
        own = self.taluk_rate[taluk] & (cls == CATTLE)
        fine[own], feed[own], sec[own] = TALUK_CATTLE
        return fine, feed, sec

    # ------------------------------------------------------------------ cases and their clean course
    def cases(self) -> None:
        rng, cfg, end = self.rng, self.cfg, self.end
        starts = np.array([add_months(np.array([self.start]), i)[0] for i in range(cfg.months)])
        ends = np.append(starts[1:], end + 1)
        moy = (self.first.month - 1 + np.arange(cfg.months)) % 12 + 1
        season = 1 + 0.3 * np.cos(2 * np.pi * (moy - 8) / 12)        # monsoon peak in August
        counts = rng.poisson(cfg.cases_per_month * season[None, :], (cfg.pounds, cfg.months))
        pound = np.repeat(np.repeat(np.arange(cfg.pounds), cfg.months), counts.ravel())
        month = np.repeat(np.tile(np.arange(cfg.months), cfg.pounds), counts.ravel())
        n = len(pound)
        D = starts[month] + (rng.random(n) * (ends[month] - starts[month])).astype(np.int64)
        order = np.lexsort((D, pound))
        pound, D = pound[order], D[order]
        mix = np.array([DISTRICTS[d] for d in self.districts], float)
        cum = np.cumsum(mix / mix.sum(axis=1, keepdims=True), axis=1)[self.pound_district[pound]]
        cls = np.minimum((rng.random(n)[:, None] > cum).sum(axis=1), ELEPHANT)
        heads = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.55, 0.25, 0.1, 0.05, 0.03, 0.02])
        big = rng.random(n) < 0.015
        heads[big] = rng.integers(8, 26, big.sum())
        w = np.where(SHORT[cls], 3, 7)
        taluk = self.pound_taluk[pound]
        kind = rng.choice([S12, S16, S17, COURT], n, p=[0.88, 0.05, 0.05, 0.02])
        kind[rng.random(n) < self.unclaimed_share[pound]] = S15
        # a process that takes weeks is only started where it can run its course in the period
        kind[(kind == S17) & (D + w + 20 > end)] = S12
        kind[(kind == S16) & (D + 90 > end)] = S12
        cid = ids("C", n)
        pool = np.maximum(3, (counts.sum(axis=1) * 0.6).astype(np.int64))
        owner_no = (rng.random(n) * pool[pound]).astype(np.int64)
        owner = np.char.add(np.char.add("O", self.pound_ids[pound].astype(str)), np.char.add("-", owner_no.astype(str))).astype(object)
        unique = np.isin(kind, [S16, S17, COURT])
        owner[unique] = np.char.add("U", cid[unique].astype(str))
        owner[(kind == S15) & (rng.random(n) < 0.7)] = ""
        fine, feed, _ = self.rate(cls, taluk, D)
        self.c = pd.DataFrame({"i": np.arange(n), "case_id": cid, "pound": pound, "taluk": taluk, "D": D, "cls": cls,
                               "heads": heads, "w": w, "kind": kind, "owner": owner, "fine": fine, "feed": feed,
                               "s13": self.s13[taluk], "price": rng.integers(PRICE_LOW[cls], PRICE_HIGH[cls] + 1) // 100 * 100})
        self.t["impoundments"] = pd.DataFrame({
            "case_id": cid, "pound_id": self.pound_ids[pound], "seized_on": D - (rng.random(n) < 0.2),
            "impounded_on": D,
            "impounded_time": np.char.add(np.char.zfill(rng.integers(6, 20, n).astype(str), 2), ":30").astype(object),
            "place_of_seizure": "", "seized_by": "", "animal_class": np.array(CLASSES, dtype=object)[cls],
            "head_count": heads, "description": "", "owner_id": owner,
            "owner_name": np.where(owner == "", "", np.char.add("Owner ", owner.astype(str))).astype(object),
            "owner_village": ""})

    def releases(self) -> None:
        rng, c, end = self.rng, self.c, self.end
        n = len(c)
        r = np.minimum(rng.choice(8, n, p=[0.15, 0.35, 0.2, 0.1, 0.08, 0.06, 0.04, 0.02]), c.w.to_numpy())
        R = c.D.to_numpy() + r
        k = c.kind.to_numpy()
        m = np.isin(k, [S12, S16, COURT]) & (R <= end)           # a release after the end has not happened yet
        x = c[m].copy()
        x["R"] = R[m]
        h = x.heads.to_numpy()
        fine_r = h * x.fine.to_numpy()
        feed_r = h * x.feed.to_numpy() * (x.R.to_numpy() - x.D.to_numpy() + 1)
        sec_r = h * self.rate(x.cls.to_numpy(), x.taluk.to_numpy(), x.R.to_numpy())[2]
        kk = x.kind.to_numpy()
        is12, is16, isc = kk == S12, kk == S16, kk == COURT
        dep = is12 & x.s13.to_numpy()
        rid = ids("R", len(x))
        did = np.where(dep, np.char.add("D", rid.astype(str)), "").astype(object)
        self.t["releases"] = pd.DataFrame({
            "release_id": rid, "case_id": x.case_id.to_numpy(), "released_on": x.R.to_numpy(), "head_count": h,
            "basis": np.array(["s12_payment", "s16_protest", "", "court_order"], dtype=object)[kk],
            "released_to": "owner", "fines_paid": np.where(is12, fine_r, NONE),
            "charges_paid": np.where(is12 | isc, feed_r, NONE), "protest_deposit": np.where(is16, fine_r + feed_r, NONE),
            "declaration_made": dep, "security_deposit_id": did, "receipt_signed": True,
            "court_order_ref": np.where(isc, np.char.add("OS ", np.char.add(rid.astype(str), " of the JMFC court")), "").astype(object),
            "_i": x.i.to_numpy(), "_fine_r": fine_r, "_feed_r": feed_r, "_sec_r": sec_r})
        deposits = pd.DataFrame({"deposit_id": did[dep], "case_id": x.case_id.to_numpy()[dep],
                                 "owner_id": x.owner.to_numpy()[dep], "deposited_on": x.R.to_numpy()[dep],
                                 "amount": sec_r[dep], "_release": rid[dep]})
        # complaints after a delivery under protest (s.16, s.20)
        p = x[is16]
        pr = p.R.to_numpy()
        ck = rng.choice(4, len(p), p=[0.4, 0.3, 0.2, 0.1])            # none, lawful, illegal, withdrawn
        filed = pr + rng.integers(1, 21, len(p))
        decided = filed + rng.integers(10, 41, len(p))
        has = (ck > 0) & (filed <= end)
        outcome = np.array(["", "lawful", "illegal", "withdrawn"], dtype=object)[ck]
        pending = has & (decided > end)
        outcome[pending] = "pending"
        self.t["complaints"] = pd.DataFrame({"case_id": p.case_id.to_numpy()[has], "filed_on": filed[has],
                                            "decided_on": np.where(pending, NONE, decided)[has], "outcome": outcome[has]})
        # s.16(2): after a lawful finding, or no complaint within four weeks, a declaration and
        # security are taken in s.13 taluks within the follow-up grace
        trig = np.where(has & (outcome == "lawful"), decided, pr + 28)
        needs = p.s13.to_numpy() & ((has & (outcome == "lawful")) | ~has)
        on = trig + rng.integers(1, 11, len(p))
        ok = needs & (on <= end)
        follow = pd.DataFrame({"deposit_id": np.char.add("F", p.case_id.to_numpy()[ok].astype(str)).astype(object),
                               "case_id": p.case_id.to_numpy()[ok], "owner_id": p.owner.to_numpy()[ok],
                               "deposited_on": on[ok],
                               "amount": p.heads.to_numpy()[ok] * self.rate(p.cls.to_numpy()[ok], p.taluk.to_numpy()[ok], on[ok])[2],
                               "_release": rid[is16][ok]})
        self.protest = pd.DataFrame({"release_id": rid[is16], "trigger": trig, "has_trigger": needs,
                                     "outcome": np.where(has, outcome, "")})
        self.t["security_deposits"] = pd.concat([deposits, follow], ignore_index=True)

    def unclaimed(self) -> None:
        """s.15: report on D+w+1, notice within two days, proclamation by then, auction from notice+w+1."""
        rng, end = self.rng, self.end
        u = self.c[self.c.kind == S15]
        D, w, h = u.D.to_numpy(), u.w.to_numpy(), u.heads.to_numpy()
        k = len(u)
        report = D + w + 1
        notice = report + rng.integers(0, 3, k)
        procl = np.minimum(notice + rng.integers(0, 2, k), report + 2)
        has = report <= end
        self.t["police_reports"] = pd.DataFrame({
            "case_id": u.case_id.to_numpy()[has], "reported_on": report[has], "reported_to": "Police station",
            "notice_on": np.where(notice <= end, notice, NONE)[has],
            "proclamation_on": np.where(procl <= end, procl, NONE)[has]})
        first = notice + w + 1 + rng.integers(0, 11, k)
        rejected = rng.random(k) < 0.15
        second = first + rng.integers(3, 11, k)
        accepted_on = np.where(rejected, second, first)
        district = self.pound_district[u.pound.to_numpy()]
        price = u.price.to_numpy()
        rej = rejected & (first <= end)
        acc = accepted_on <= end
        buyers = np.array(BUYER, dtype=object)[rng.integers(0, len(BUYER), k)]
        parts = [
            pd.DataFrame({"case_id": u.case_id.to_numpy()[rej], "path": "s15_unclaimed", "sale_on": first[rej],
                          "head_offered": h[rej], "head_sold": 0, "bid_amount": (price * h * 6 // 10 // 100 * 100)[rej],
                          "accepted": False, "buyer_name": "", "conducted_by": self.sale_officer[district[rej]],
                          "sale_expenses": rng.integers(1, 4, k)[rej] * 10000,
                          "disposal_note": "Bid below a fair price; the auction is to be held again"}),
            pd.DataFrame({"case_id": u.case_id.to_numpy()[acc], "path": "s15_unclaimed", "sale_on": accepted_on[acc],
                          "head_offered": h[acc], "head_sold": h[acc], "bid_amount": (price * h)[acc], "accepted": True,
                          "buyer_name": buyers[acc], "conducted_by": self.sale_officer[district[acc]],
                          "sale_expenses": rng.integers(2, 9, k)[acc] * 10000, "disposal_note": ""}),
        ]
        self.sale_parts = parts

    def refusals(self) -> None:
        """s.17: the owner appears and refuses; as many head as necessary are sold and the rest delivered."""
        rng = self.rng
        s = self.c[self.c.kind == S17]
        k = len(s)
        D, h = s.D.to_numpy(), s.heads.to_numpy()
        S = D + rng.integers(1, s.w.to_numpy() + 1) + rng.integers(3, 11, k)
        expenses = rng.integers(2, 9, k) * 10000
        dues = self._dues(s, S, expenses, s17=True)
        need = np.minimum(np.maximum(1, -(-dues // s.price.to_numpy())), h)
        district = self.pound_district[s.pound.to_numpy()]
        self.sale_parts.append(pd.DataFrame({
            "case_id": s.case_id.to_numpy(), "path": "s17_refusal", "sale_on": S, "head_offered": h, "head_sold": need,
            "bid_amount": s.price.to_numpy() * need, "accepted": True,
            "buyer_name": np.array(BUYER, dtype=object)[rng.integers(0, len(BUYER), k)],
            "conducted_by": self.sale_officer[district], "sale_expenses": expenses, "disposal_note": ""}))
        sales = pd.concat(self.sale_parts, ignore_index=True)
        sales = sales.sort_values(["case_id", "sale_on"], kind="stable").reset_index(drop=True)
        sales.insert(0, "sale_id", ids("S", len(sales)))
        sales["buyer_person_id"] = ""
        sales["balance_paid"] = NONE
        self.t["sales"] = sales
        self._remainders()

    def _dues(self, cases: pd.DataFrame, S: np.ndarray, expenses: np.ndarray, s17: bool) -> np.ndarray:
        h, D = cases.heads.to_numpy(), cases.D.to_numpy()
        sec = self.rate(cases.cls.to_numpy(), cases.taluk.to_numpy(), S)[2]
        security = np.where(cases.s13.to_numpy() & s17, h * sec, 0)
        return expenses + h * cases.feed.to_numpy() * (S - D + 1) + h * cases.fine.to_numpy() + security

    def _remainders(self) -> None:
        """Deliver the unsold heads of every s.17 sale on the sale day; record the owner's balance."""
        rel = self.t["releases"]
        rel = rel[rel.basis != "s17_remainder"]
        sales = self.t["sales"]
        s17 = sales[(sales.path == "s17_refusal") & sales.accepted]
        cases = self.c.set_index("case_id").loc[s17.case_id]
        left = cases.heads.to_numpy() - s17.head_sold.to_numpy()
        m = left > 0
        extra = pd.DataFrame({
            "release_id": np.char.add("RR", s17.sale_id.to_numpy()[m].astype(str)).astype(object),
            "case_id": s17.case_id.to_numpy()[m], "released_on": s17.sale_on.to_numpy()[m], "head_count": left[m],
            "basis": "s17_remainder", "released_to": "owner", "fines_paid": NONE, "charges_paid": NONE,
            "protest_deposit": NONE, "declaration_made": False, "security_deposit_id": "", "receipt_signed": True,
            "court_order_ref": "", "_i": cases.i.to_numpy()[m], "_fine_r": 0, "_feed_r": 0, "_sec_r": 0})
        self.t["releases"] = pd.concat([rel, extra], ignore_index=True)
        acc = self.waterfall()
        bal = acc.set_index("case_id")["balance"]
        idx = s17.index
        self.t["sales"].loc[idx, "balance_paid"] = bal.loc[s17.case_id].to_numpy()

    def waterfall(self) -> pd.DataFrame:
        """Each sold case's dues and what its proceeds paid (s.15(3), s.17(2)), in the default order."""
        sales = self.t["sales"]
        acc = sales.accepted.to_numpy(bool)
        frame = pd.DataFrame({"case_id": sales.case_id, "P": np.where(acc, sales.bid_amount, 0),
                              "E": sales.sale_expenses, "S": np.where(acc, sales.sale_on, NONE),
                              "s17": acc & (sales.path == "s17_refusal").to_numpy()})
        agg = frame.groupby("case_id").agg(P=("P", "sum"), E=("E", "sum"), S=("S", "max"), s17=("s17", "any"))
        agg = agg[agg.S != NONE]
        cases = self.c.set_index("case_id").loc[agg.index]
        h, D, S = cases.heads.to_numpy(), cases.D.to_numpy(), agg.S.to_numpy()
        s17 = agg.s17.to_numpy()
        feeding = h * cases.feed.to_numpy() * (S - D + 1)
        fines = h * cases.fine.to_numpy()
        sec = np.where(s17 & cases.s13.to_numpy(), h * self.rate(cases.cls.to_numpy(), cases.taluk.to_numpy(), S)[2], 0)
        left = agg.P.to_numpy()
        takes = []
        for due in (agg.E.to_numpy(), feeding, fines, sec):
            take = np.minimum(due, left)
            takes.append(take)
            left = left - take
        return pd.DataFrame({"case_id": agg.index, "S": S, "P": agg.P.to_numpy(), "s17": s17,
                             "fines_take": takes[2], "balance": np.where(s17, left, 0),
                             "surplus": np.where(s17, 0, left), "pound": cases.pound.to_numpy()})

    def deposit_outcomes(self) -> None:
        """Forfeit on re-impoundment within six months (s.13(2)); refund on application after them."""
        d = self.t["security_deposits"]
        t = d.deposited_on.to_numpy(np.int64)
        window = add_months(t, 6)
        nxt = self.next_case(d.owner_id.to_numpy(object), t)
        forfeit = (nxt != NONE) & (nxt <= window) & (nxt <= self.end)
        applied = window + 1 + self.rng.integers(0, 20, len(d))
        refunded = applied + self.rng.integers(0, 10, len(d))
        refund = ~forfeit & (refunded <= self.end)
        amount = d.amount.to_numpy()
        d["refund_applied_on"] = np.where(refund, applied, NONE)
        d["refunded_on"] = np.where(refund, refunded, NONE)
        d["refunded_amount"] = np.where(refund, amount, NONE)
        d["forfeited_on"] = np.where(forfeit, nxt, NONE)     # forfeited on the day of the re-impounding
        d["forfeited_amount"] = np.where(forfeit, amount, NONE)
        d["_forfeitable"] = forfeit
        d["_window"] = window

    def next_case(self, owners: np.ndarray, after: np.ndarray) -> np.ndarray:
        """For each (owner, day): the first impounding day of that owner strictly after it, else NONE."""
        imp = self.t["impoundments"]
        known = (imp.owner_id != "").to_numpy()
        o = imp.owner_id.to_numpy(object)[known]
        cat = pd.Categorical(np.concatenate([o, owners]))
        codes = cat.codes.astype(np.int64)
        scale = 10**6
        key = np.sort(codes[: len(o)] * scale + imp.impounded_on.to_numpy(np.int64)[known])
        q = codes[len(o):] * scale + after
        pos = np.searchsorted(key, q, side="right")
        inside = pos < len(key)
        pos = np.minimum(pos, max(len(key) - 1, 0))
        same = inside & (owners != "") & (key[pos] // scale == codes[len(o):]) if len(key) else np.zeros(len(q), bool)
        return np.where(same, key[pos] % scale if len(key) else NONE, NONE)

    def removal_orders(self) -> None:
        rng, end = self.rng, self.end
        s14 = np.flatnonzero(self.s14)
        k = max(4, int(self.cfg.pounds * self.cfg.months / 5))
        taluk = s14[rng.integers(0, len(s14), k)]
        issued = rng.integers(self.start, max(self.start + 1, end - 40), k)
        clause = np.where(rng.random(k) < 0.6, "ii", "i").astype(object)
        owner_heads = np.where(clause == "ii", rng.integers(21, 80, k), rng.integers(2, 30, k))
        comply_by = issued + 30
        police = rng.random(k) < 0.25
        complied = np.where(police, NONE, issued + rng.integers(5, 30, k))
        police_on = np.where(police, comply_by + rng.integers(1, 6, k), NONE)
        fine = np.where(rng.random(k) < 0.3, rng.integers(2, 11, k) * 10000, NONE)
        paid = np.where(fine != NONE, issued + rng.integers(10, 40, k), NONE)
        late = paid > end
        fine[late], paid[late] = NONE, NONE
        self.t["removal_orders"] = pd.DataFrame({
            "order_id": ids("RO", k), "taluk": self.taluks[taluk],
            "owner_id": np.char.add("H", np.arange(k).astype(str)).astype(object), "owner_name": "Herd owner",
            "clause": clause, "owner_head_count": owner_heads, "head_count": np.minimum(owner_heads, 20),
            "issued_on": issued, "comply_by": comply_by, "complied_on": complied, "police_removal_on": police_on,
            "fine_imposed": fine, "fine_paid_on": paid})

    # ------------------------------------------------------------------ planted violations
    def plant(self) -> None:
        """Give violation_rate of the cases one violation each, spread evenly over the rules.

        Each rule picks its share at once from the rows it can be planted on (whole arrays,
        no loop over cases), never a case another planted violation already touched.
        """
        total = int(round(self.cfg.violation_rate * len(self.c)))
        self.touched = np.zeros(0, dtype=object)
        self.touched_deposits = np.zeros(0, dtype=object)
        self.touched_orders = np.zeros(0, dtype=object)
        self.balance_off = np.zeros(0, dtype=object)
        self.future = 0
        self.case_info = self.c.set_index("case_id", drop=False)
        per = {r: total // len(PLANTABLE) + (1 if i < total % len(PLANTABLE) else 0) for i, r in enumerate(PLANTABLE)}
        for rule, k in per.items():
            if k:
                subjects = getattr(self, "_p_" + rule.replace("-", "_"))(k)
                self.planted += [(rule, str(x)) for x in subjects]

    def _pick(self, frame: pd.DataFrame, mask: np.ndarray, k: int, key: str = "case_id") -> pd.DataFrame:
        """Up to k random eligible rows, one per case, of cases (or keys) not touched yet; marks them."""
        seen = {"case_id": "touched", "deposit_id": "touched_deposits", "order_id": "touched_orders"}[key]
        cand = frame[np.asarray(mask, bool) & ~frame[key].isin(getattr(self, seen)).to_numpy()]
        cand = cand[~cand[key].duplicated()]
        if cand.empty:
            return cand
        take = self.rng.choice(len(cand), min(k, len(cand)), replace=False)
        chosen = cand.iloc[np.sort(take)]
        setattr(self, seen, np.concatenate([getattr(self, seen), chosen[key].to_numpy(object)]))
        if key != "case_id" and "case_id" in chosen:
            self.touched = np.concatenate([self.touched, chosen.case_id.to_numpy(object)])
        return chosen

    def _releases(self, basis: str, s13: bool | None = None) -> tuple[pd.DataFrame, np.ndarray]:
        r = self.t["releases"]
        m = (r.basis == basis).to_numpy().copy()
        if s13 is not None:
            m &= self.c.s13.to_numpy()[r._i.to_numpy()] == s13
        return r, m

    def _p_REL_UNPAID(self, k):
        r, m = self._releases("s12_payment")
        x = self._pick(r, m & (r.charges_paid > 0).to_numpy(), k)
        r.loc[x.index, "charges_paid"] = np.maximum(0, x.charges_paid - 10000)
        return x.release_id

    def _p_REL_UNSIGNED(self, k):
        r, m = self._releases("s12_payment")
        x = self._pick(r, m, k)
        r.loc[x.index, "receipt_signed"] = False
        return x.release_id

    def _p_REL_NO_DECLARATION(self, k):
        r, m = self._releases("s12_payment", s13=True)
        x = self._pick(r, m, k)
        r.loc[x.index, "declaration_made"] = False
        return x.release_id

    def _p_REL_NO_SECURITY(self, k):
        r, m = self._releases("s12_payment", s13=True)
        x = self._pick(r, m, k)
        d = self.t["security_deposits"]
        self.t["security_deposits"] = d[~d.deposit_id.isin(x.security_deposit_id)].reset_index(drop=True)
        r.loc[x.index, "security_deposit_id"] = ""
        return x.release_id

    def _p_REL_PROTEST_SHORT(self, k):
        r, m = self._releases("s16_protest")
        x = self._pick(r, m, k)
        r.loc[x.index, "protest_deposit"] = x.protest_deposit - 10000
        return x.release_id

    def _p_REL_UNAUTHORISED(self, k):
        r, m = self._releases("court_order")
        x = self._pick(r, m, k)
        r.loc[x.index, "court_order_ref"] = ""
        return x.release_id

    def _p_SALE_OFFICIAL_BUYER(self, k):
        s = self.t["sales"]
        x = self._pick(s, ((s.path == "s15_unclaimed") & s.accepted).to_numpy(), k)
        pound = x.case_id.map(self.case_info.pound).to_numpy(np.int64)
        # the pound-keeper's own name, in other case and spacing: still an official (s.19(1))
        s.loc[x.index, "buyer_name"] = np.char.upper(self.keeper_name[pound].astype(str)).astype(object)
        return x.sale_id

    def _drop_sales(self, cases) -> None:
        s = self.t["sales"]
        self.t["sales"] = s[~s.case_id.isin(cases)]

    def _p_S15_REPORT_MISSING(self, k):
        p = self.t["police_reports"]
        x = self._pick(p, (p.reported_on < self.end).to_numpy(), k)
        self.t["police_reports"] = p.drop(index=x.index)
        self._drop_sales(x.case_id)
        return x.case_id

    def _p_S15_REPORT_LATE(self, k):
        p, s = self.t["police_reports"], self.t["sales"]
        last = p.case_id.map(s.groupby("case_id").sale_on.max()).fillna(NONE).astype(np.int64).to_numpy()
        latest = np.maximum(np.maximum(p.notice_on.to_numpy(), p.proclamation_on.to_numpy()), last)
        ok = (latest + 2 <= self.end) & (p.notice_on != NONE).to_numpy() & (p.proclamation_on != NONE).to_numpy()
        x = self._pick(p, ok, k)
        p.loc[x.index, ["reported_on", "notice_on", "proclamation_on"]] += 2
        s.loc[s.case_id.isin(x.case_id), "sale_on"] += 2
        return x.case_id

    def _p_S15_REPORT_EARLY(self, k):
        p = self.t["police_reports"]
        x = self._pick(p, np.ones(len(p), bool), k)
        p.loc[x.index, "reported_on"] -= 1
        return x.case_id

    def _p_S15_NOTICE_MISSING(self, k):
        p = self.t["police_reports"]
        x = self._pick(p, ((p.reported_on + 3 < self.end) & (p.proclamation_on != NONE)).to_numpy(), k)
        p.loc[x.index, "proclamation_on"] = NONE
        return x.case_id

    def _p_S15_SALE_EARLY(self, k):
        s = self.t["sales"]
        p = self.t["police_reports"].set_index("case_id")
        attempts = s.groupby("case_id").sale_id.transform("count").to_numpy()
        notice = s.case_id.map(p.notice_on).fillna(NONE).astype(np.int64).to_numpy()
        m = ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & (attempts == 1) & (notice != NONE)
        x = self._pick(s, m, k)
        s.loc[x.index, "sale_on"] = x.case_id.map(p.notice_on).to_numpy() + x.case_id.map(self.case_info.w).to_numpy()
        return x.sale_id

    def _p_S15_SALE_OVERDUE(self, k):
        p = self.t["police_reports"]
        w = p.case_id.map(self.case_info.w).to_numpy()
        x = self._pick(p, (p.notice_on != NONE).to_numpy() & (p.notice_on.to_numpy() + w + 31 < self.end), k)
        self._drop_sales(x.case_id)
        return x.case_id

    def _p_S15_BID_REJECTED_UNRESOLVED(self, k):
        s = self.t["sales"]
        first = ~s.case_id.duplicated().to_numpy()
        x = self._pick(s, (s.path == "s15_unclaimed").to_numpy() & first, k)
        s.loc[x.index, ["accepted", "head_sold", "disposal_note", "buyer_name"]] = [False, 0, "", ""]
        self.t["sales"] = s[~(s.case_id.isin(x.case_id) & ~s.index.isin(x.index))]
        return x.sale_id

    def _p_S16_FOLLOW_UP_MISSING(self, k):
        d = self.t["security_deposits"]
        trig = d._release.map(self.protest.set_index("release_id").trigger).fillna(NONE).astype(np.int64).to_numpy()
        x = self._pick(d, d.deposit_id.str.startswith("F").to_numpy() & (trig != NONE) & (trig + 14 < self.end), k)
        self.t["security_deposits"] = d.drop(index=x.index)
        return x._release

    def _deposits(self, mask, k):
        d = self.t["security_deposits"]
        return d, self._pick(d, mask(d), k, key="deposit_id")

    def _p_S13_FORFEIT_MISSED(self, k):
        d, x = self._deposits(lambda d: d._forfeitable.to_numpy(bool), k)
        d.loc[x.index, ["forfeited_on", "forfeited_amount"]] = NONE
        return x.deposit_id

    def _p_S13_FORFEIT_UNLAWFUL(self, k):
        d, x = self._deposits(lambda d: ~d._forfeitable.to_numpy(bool) & (d.deposited_on + 5 <= self.end).to_numpy(), k)
        d.loc[x.index, "forfeited_on"] = x.deposited_on + 5
        d.loc[x.index, "forfeited_amount"] = x.amount
        d.loc[x.index, ["refund_applied_on", "refunded_on", "refunded_amount"]] = NONE
        return x.deposit_id

    def _p_S13_REFUND_EARLY(self, k):
        d, x = self._deposits(lambda d: ~d._forfeitable.to_numpy(bool) & (d.deposited_on + 12 <= self.end).to_numpy(), k)
        d.loc[x.index, "refund_applied_on"] = x.deposited_on + 10
        d.loc[x.index, "refunded_on"] = x.deposited_on + 12
        d.loc[x.index, "refunded_amount"] = x.amount
        return x.deposit_id

    def _p_S13_SECURITY_UNAUTHORISED(self, k):
        r, m = self._releases("s12_payment", s13=False)
        owners = r.case_id.map(self.case_info.owner).to_numpy(object)
        on = r.released_on.to_numpy(np.int64)
        nxt = self.next_case(owners, on)
        free = (nxt == NONE) | (nxt > add_months(on, 6))          # no re-impounding would make it forfeitable
        x = self._pick(r, m & free, k)
        dep = np.char.add("X", x.release_id.to_numpy().astype(str)).astype(object)
        extra = pd.DataFrame({"deposit_id": dep, "case_id": x.case_id.to_numpy(),
                              "owner_id": x.case_id.map(self.case_info.owner).to_numpy(), "deposited_on": x.released_on.to_numpy(),
                              "amount": x._sec_r.to_numpy(), "refund_applied_on": NONE, "refunded_on": NONE,
                              "refunded_amount": NONE, "forfeited_on": NONE, "forfeited_amount": NONE,
                              "_release": x.release_id.to_numpy(), "_forfeitable": False})
        self.t["security_deposits"] = pd.concat([self.t["security_deposits"], extra], ignore_index=True)
        return dep

    def _s17(self, min_heads: int, unsold_left: bool) -> tuple[pd.DataFrame, np.ndarray]:
        s = self.t["sales"]
        heads = s.case_id.map(self.case_info.heads).to_numpy()
        m = (s.path == "s17_refusal").to_numpy() & (heads >= min_heads)
        if unsold_left:
            m &= s.head_sold.to_numpy() < heads
        return s, m

    def _p_S17_OVERSALE(self, k):
        s, m = self._s17(2, unsold_left=True)
        x = self._pick(s, m, k)
        s.loc[x.index, "head_sold"] = x.head_sold + 1
        s.loc[x.index, "bid_amount"] = x.case_id.map(self.case_info.price).to_numpy() * (x.head_sold.to_numpy() + 1)
        return x.case_id

    def _p_S17_SHORTFALL_RETURNED(self, k):
        s, m = self._s17(2, unsold_left=False)
        x = self._pick(s, m, k)
        info = self.case_info.loc[x.case_id]
        dues = self._dues(info, x.sale_on.to_numpy(), x.sale_expenses.to_numpy(), s17=True)
        s.loc[x.index, "head_sold"] = 1
        s.loc[x.index, "bid_amount"] = np.maximum(100, (dues - 10000) // 100 * 100)     # one head, short of the dues
        return x.case_id

    def _p_S17_BALANCE_MISMATCH(self, k):
        s, m = self._s17(1, unsold_left=False)
        x = self._pick(s, m, k)
        self.balance_off = np.concatenate([self.balance_off, x.sale_id.to_numpy(object)])
        return x.sale_id

    def _orders(self, mask, k):
        o = self.t["removal_orders"]
        return o, self._pick(o, mask(o), k, key="order_id")

    def _p_S14_FINE_EXCESS(self, k):
        o, x = self._orders(lambda o: (o.issued_on + 10 <= self.end).to_numpy(), k)
        o.loc[x.index, "fine_imposed"] = 150000
        o.loc[x.index, "fine_paid_on"] = x.issued_on + 10
        return x.order_id

    def _p_S14_NOT_ENFORCED(self, k):
        o, x = self._orders(lambda o: (o.comply_by < self.end).to_numpy(), k)
        o.loc[x.index, ["complied_on", "police_removal_on"]] = NONE
        return x.order_id

    def _p_S14_CLAUSE_II_SMALL_HERD(self, k):
        o, x = self._orders(lambda o: (o.clause == "ii").to_numpy(), k)
        o.loc[x.index, ["owner_head_count", "head_count"]] = 15
        return x.order_id

    def _p_S14_NOT_NOTIFIED(self, k):
        plain = np.flatnonzero(~self.s14)
        if len(plain) == 0:
            return []
        o, x = self._orders(lambda o: np.ones(len(o), bool), k)
        o.loc[x.index, "taluk"] = self.taluks[plain[0]]
        return x.order_id

    def _p_RATE_MISSING(self, k):
        r, m = self._releases("s12_payment", s13=False)
        x = self._pick(r, m, k)
        imp = self.t["impoundments"]
        imp.loc[imp.case_id.isin(x.case_id), "animal_class"] = "mule"          # no mule rate is published
        return x.case_id

    def _p_DQ_SEIZED_AFTER_IMPOUNDED(self, k):
        imp = self.t["impoundments"]
        x = self._pick(imp, (imp.impounded_on + 1 <= self.end).to_numpy(), k)
        imp.loc[x.index, "seized_on"] = x.impounded_on + 1
        return x.case_id

    def _p_DQ_FUTURE_DATE(self, k):
        self.future = k                                   # ledger entries dated after the last day (ledgers())
        return [f"LFX{i + 1:05d}" for i in range(k)]

    # ------------------------------------------------------------------ after planting
    def settle(self) -> None:
        """Recompute what follows from the final registers: s.17 remainders and balances."""
        self._remainders()
        s = self.t["sales"]
        s.loc[s.sale_id.isin(self.balance_off), "balance_paid"] += 10000        # S17-BALANCE-MISMATCH

    def ledgers(self) -> None:
        """What the local funds and the DM recorded: mostly right, with realistic lags."""
        rng, end = self.rng, self.end
        la = self.la_ids[self.c.set_index("case_id").pound]
        la = pd.Series(la, index=self.c.case_id)
        rel = self.t["releases"]
        parts = []
        m = (rel.fines_paid > 0).to_numpy()
        parts.append(pd.DataFrame({"ref": rel.case_id[m], "head": "fines", "amount": rel.fines_paid[m],
                                   "due": rel.released_on[m]}))
        pr = rel[rel.basis == "s16_protest"].merge(self.protest, on="release_id")
        lawful = (pr.outcome == "lawful").to_numpy()
        silent = (pr.outcome == "").to_numpy() & (pr.released_on + 28 < end).to_numpy()
        due = np.where(lawful, pr.trigger, pr.released_on + 29)
        ok = lawful | silent
        parts.append(pd.DataFrame({"ref": pr.case_id[ok], "head": "fines",
                                   "amount": np.minimum(pr.protest_deposit, pr._fine_r)[ok], "due": due[ok]}))
        wf = self.waterfall()
        f = wf.fines_take > 0
        parts.append(pd.DataFrame({"ref": wf.case_id[f], "head": "fines", "amount": wf.fines_take[f], "due": wf.S[f]}))
        sur = wf[wf.surplus > 0]
        credit_due = add_months(sur.S.to_numpy(), 6) + 1
        parts.append(pd.DataFrame({"ref": sur.case_id, "head": "surplus", "amount": sur.surplus, "due": credit_due}))
        x = pd.concat(parts, ignore_index=True)
        x = x.groupby(["ref", "head"], as_index=False).agg(amount=("amount", "sum"), due=("due", "max"))
        k = len(x)
        roll = rng.random(k)
        lag = np.where(roll < 0.05, rng.integers(35, 75, k), rng.integers(1, 26, k))
        amount = np.where((roll > 0.97) & (x.amount > 20000), x.amount - 10000, x.amount)
        on = x.due.to_numpy() + lag
        keep = (on <= end) & (roll < 0.99)
        lf = pd.DataFrame({"local_authority_id": x.ref.map(la).to_numpy()[keep], "entry_on": on[keep],
                           "amount": amount[keep], "reference": x.ref.to_numpy()[keep], "head": x["head"].to_numpy()[keep]})
        n_other = max(1, self.cfg.pounds // 3)
        other = pd.DataFrame({"local_authority_id": self.la_ids[rng.integers(0, len(self.la_ids), n_other)],
                              "entry_on": rng.integers(self.start, end + 1, n_other), "amount": rng.integers(5, 50, n_other) * 10000,
                              "reference": "Pound land lease rent", "head": "other"})
        future = pd.DataFrame({"local_authority_id": self.la_ids[0], "entry_on": end + 3, "amount": 10000,
                               "reference": "Advance booking", "head": "other"}, index=range(self.future))
        lf = pd.concat([lf, other], ignore_index=True).sort_values(["entry_on", "local_authority_id"], kind="stable")
        lf.insert(0, "entry_id", ids("LF", len(lf)))
        if len(future):
            future.insert(0, "entry_id", [f"LFX{i + 1:05d}" for i in range(len(future))])
            lf = pd.concat([lf, future], ignore_index=True)
        self.t["local_fund"] = lf
        # the DM's deposit account: receipts of surplus (s.18(5)) and credits to the local fund after six months
        k = len(sur)
        rec_on = sur.S.to_numpy() + rng.integers(1, 11, k)
        credit_on = credit_due + rng.integers(0, 10, k)
        dm = pd.concat([
            pd.DataFrame({"entry_on": rec_on, "kind": "receipt", "amount": sur.surplus.to_numpy(), "reference": sur.case_id.to_numpy(),
                          "local_authority_id": sur.case_id.map(la).to_numpy()})[rec_on <= end],
            pd.DataFrame({"entry_on": credit_on, "kind": "credit_to_local_fund", "amount": sur.surplus.to_numpy(),
                          "reference": sur.case_id.to_numpy(), "local_authority_id": sur.case_id.map(la).to_numpy()})[credit_on <= end],
        ], ignore_index=True).sort_values("entry_on", kind="stable")
        dm.insert(0, "entry_id", ids("DM", len(dm)))
        self.t["dm_deposit"] = dm


def to_text(frame: pd.DataFrame, register: str) -> pd.DataFrame:
    """Typed frame -> the text a clerk's CSV holds (dates ISO, rupees with two decimals, yes/no)."""
    from pipeline.core.registers import COUNT, DATE, FLAG, MONEY

    reg = BY_NAME[register]
    out = {}
    for col in reg.columns:
        if col.name not in frame:
            out[col.name] = np.full(len(frame), "", dtype=object)
            continue
        v = frame[col.name].to_numpy()
        if col.kind == DATE:
            out[col.name] = iso(v.astype(np.int64), v != NONE)
        elif col.kind == MONEY:
            out[col.name] = rupees(v.astype(np.int64), v != NONE)
        elif col.kind == COUNT:
            out[col.name] = np.where(v.astype(np.int64) == NONE, "", v.astype(np.int64).astype(str)).astype(object)
        elif col.kind == FLAG:
            out[col.name] = np.where(v.astype(bool), "yes", "no").astype(object)
        else:
            out[col.name] = v
    return pd.DataFrame(out)


def write_bundle(out: Path, cfg: SynthConfig, progress: Progress = QUIET) -> str:
    if out.exists() and any(out.iterdir()):
        raise PoundError(f"{out} exists and is not empty; give a new folder for the synthetic bundle")
    g = Generator(cfg)
    steps = [("reference tables", g.reference), ("cases", g.cases), ("releases and deposits", g.releases),
             ("unclaimed cattle", g.unclaimed), ("s.17 sales", g.refusals), ("security outcomes", g.deposit_outcomes),
             ("removal orders", g.removal_orders), ("planted violations", g.plant), ("accounts", g.settle),
             ("ledgers", g.ledgers)]
    for i, (what, step) in enumerate(steps, 1):
        progress.step(f"[{i}/{len(steps) + 1}] {what}")
        step()
    progress.step(f"[{len(steps) + 1}/{len(steps) + 1}] writing CSV files")
    out.mkdir(parents=True, exist_ok=True)
    rows = 0
    for name, frame in g.t.items():
        reg = BY_NAME[name]
        text = to_text(frame, name)
        if name in ("impoundments", "releases") and len(text):
            year = text[reg.names[3] if name == "impoundments" else "released_on"].str[:4]
            for y in sorted(year.unique()):
                _write(out / reg.folder / f"{name}_{y}.csv", text[year == y])
        else:
            _write(out / reg.folder / f"{name}.csv", text)
        rows += len(text)
    planted = pd.DataFrame(sorted(g.planted), columns=["rule_id", "subject_id"])
    planted.to_csv(out / "planted.csv", index=False, lineterminator="\n")
    (out / "README.txt").write_text(
        f"Synthetic pound registers (pound synth, seed {cfg.seed}): {cfg.pounds} pounds, {cfg.months} months from "
        f"{g.first:%Y-%m}, about {cfg.cases_per_month} cases per pound per month.\n"
        f"The registers run to {g.end_date}; run them as of that day:\n"
        f"  pound run THIS_FOLDER --out OUT --as-of {g.end_date}\n"
        f"planted.csv lists the {len(planted)} violations planted on purpose; every other row is clean.\n",
        encoding="utf-8")
    progress.done(f"wrote {rows:,} rows to {out}")
    kinds = len(set(planted.rule_id))
    return (f"wrote {out}: {len(g.c):,} cases, {rows:,} rows in all; {len(planted)} planted violations of {kinds} rules "
            f"(planted.csv); registers run to {g.end_date}: use --as-of {g.end_date}")


def _write(path: Path, frame: pd.DataFrame) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
