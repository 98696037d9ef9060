"""What a synthetic bundle is made of: its size, and the figures it draws on, with their sources.

Figures and their sources (see docs/design.md, "Synthetic data"):
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

import datetime as dt
from dataclasses import dataclass

import numpy as np

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

# Readings of the Act (pipeline/core/params.py) that the generator's own timeline is drawn with:
# claim windows, grace periods, the s.13 window, the s.14 limits. A bundle is clean, and its
# planted violations are found, only at their defaults. Every other reading (feeding days,
# the waterfall order, where money goes and when) reaches synth through the build, so a
# bundle follows any value of it (accounts.py).
TIMELINE_READINGS = ("claim_days", "claim_days_short", "short_classes", "count_first_day", "security_window_months",
                     "report_grace", "notice_grace", "sale_grace", "complaint_window", "followup_grace",
                     "s14_fine_cap", "s14_herd_threshold")

# How a case ends: paid (s.12), delivered under protest (s.16), sold on refusal (s.17),
# released by a court, or unclaimed and sold (s.15).
S12, S16, S17, COURT, S15 = range(5)


@dataclass
class SynthConfig:
    pounds: int = 12
    months: int = 12
    cases_per_month: int = 20
    seed: int = 1
    violation_rate: float = 0.02
    start: str | None = None          # YYYY-MM; default: the last month is the one before today
    district: str | None = None       # one district of DISTRICTS, every pound in it; default: about one per six pounds

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
