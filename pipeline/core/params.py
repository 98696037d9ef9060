"""Every reading of the Act and every grace period, named, in one place.

The statute leaves choices open (how days are counted, how "six months" is
reckoned, in which order sale proceeds pay the dues). Each choice the pipeline
makes is a parameter here, with the section it rests on, its default and the
reading it encodes. The SQL models read them with getvariable('<name>');
`pound run/build --params FILE` overrides them and the values used are written
beside the outputs (parameters.toml) and into the `parameters` table.
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.registers import ANIMAL_CLASSES


@dataclass(frozen=True)
class Param:
    name: str
    default: object
    section: str
    reading: str
    choices: tuple = ()
    unit: str = ""


PARAMS: tuple[Param, ...] = (
    # --- counting days and months ------------------------------------------------
    Param("claim_days", 7, "15(1), 15(3)",
          "Cattle not claimed within seven days of impounding (or of the notice) go down the s.15 path.",
          unit="days"),
    Param("claim_days_short", 3, "15(1) proviso, 15(3)",
          "Asses and sheep have three days instead of seven.", unit="days"),
    Param("short_classes", ["ass", "sheep"], "15(1) proviso",
          "The animal classes that have the short window: asses and sheep, read literally (goats are not sheep)."),
    Param("count_first_day", False, "15(1); General Clauses Act s.9",
          "'Within N days from D' excludes D, so the window is D+1 .. D+N. True counts D as day 1 instead "
          "(every deadline one day earlier).", choices=(False, True)),
    Param("feeding_days", "days_or_part", "12(1), 17(2)",
          "Feeding is charged for every calendar day or part a head was held, both ends included "
          "(leave - impounded + 1). 'nights' charges leave - impounded.", choices=("days_or_part", "nights")),
    Param("month_arithmetic", "calendar_clamped", "13(2), 18(5)",
          "'Six months from D' is six calendar months, clamped to the month's end (31 Aug + 6 months = 28 Feb); "
          "the window (D, D+6m] includes its last day. No other reckoning is implemented.",
          choices=("calendar_clamped",)),
    Param("security_window_months", 6, "13(2)",
          "A re-impoundment within six months of the deposit makes it forfeitable; after them it is refundable.",
          unit="months"),
    Param("surplus_hold_months", 6, "18(5)",
          "The DM holds each sum of unclaimed surplus he receives for six months from the day he receives it (he "
          "cannot hold what he has not received); each is credited to the local fund the day after. No receipt: "
          "no due day yet.",
          unit="months"),
    # --- rates and the sale waterfall ------------------------------------------------
    Param("rate_date", "impounded_on", "10(1), 12(1)",
          "Fines and feeding use the rate row in force on the impounding date for the whole case; "
          "a row for the pound's taluk wins over '*'.", choices=("impounded_on",)),
    Param("security_rate_date", "due_date", "13(1)",
          "Security uses the rate row in force on the day it falls due (the release, or the s.17 sale).",
          choices=("due_date",)),
    Param("waterfall_order", ["expenses", "feeding", "fines", "security"], "15(3), 17(2)",
          "Sale proceeds pay the dues in this order, each taking what is left: the expenses of sale, "
          "feeding to the sale day, the fines, then (s.17 only) the security. Any order of these four may be given, "
          "or \"pro_rata\": when the proceeds fall short, each due takes the same share of itself (to the paisa, "
          "the odd paise going to the dues in the default order). The Act lists the dues without an order; the "
          "default follows the order s.17(2) lists them in and pays first what was spent on the cattle (the sale "
          "and their keep) before what is owed to the public funds, the reading of the contract's accounts."),
    Param("forfeit_share", "recorded_else_whole", "13(2)",
          "A forfeitable deposit forfeits the amount the register records as forfeited, or the whole deposit "
          "when none is recorded (the Rules' share is not known).", choices=("recorded_else_whole", "whole")),
    # --- grace periods of the findings --------------------------------------------------
    Param("report_grace", 0, "15(1)", "Days allowed after D+w+1 before a report to the police is late.", unit="days"),
    Param("notice_grace", 2, "15(2)", "Days allowed after the report for the notice and the proclamation.", unit="days"),
    Param("sale_grace", 30, "15(3)", "Days allowed after the notice window before an unsold unclaimed case is overdue.",
          unit="days"),
    Param("complaint_window", 28, "16(2)", "Four weeks after a delivery under protest to file the complaint.",
          unit="days"),
    Param("followup_grace", 14, "16(2)", "Days allowed after the s.16 trigger day to take the declaration and security.",
          unit="days"),
    Param("s14_fine_cap", 1000, "14(3)", "The largest fine a Tahsildar may impose under s.14(3).", unit="rupees"),
    Param("s14_herd_threshold", 20, "14(1)(ii)", "Clause (ii) orders are for non-residents owning more than twenty head.",
          unit="head"),
    # --- reconciliation and reports ------------------------------------------------------
    Param("reconciliation_lag", 30, "18(2), 18(5)",
          "Days a credit may take to reach a ledger before it counts as late (or, if absent, missing).", unit="days"),
    Param("ledger_grace", 30, "18(2), 18(5)",
          "Days after its due day within which an expected local fund credit, or the DM's receipt of a surplus, "
          "must be recorded in full; after them it is a finding (LF-CREDIT-OVERDUE, DM-RECEIPT-OVERDUE).",
          unit="days"),
    Param("deadline_horizon", 7, "15, 16",
          "The DM's review lists cases reaching a statutory deadline within this many days.", unit="days"),
    # --- the papers the public reads ------------------------------------------------------
    Param("papers_lang", "en", "12(2), 13, 15(2), 17(3), 17(4)",
          "The language of the notice and proclamation, the receipts and the owner's account (pound documents, "
          "the desk's papers): en, kn (Kannada), or both (Kannada first, English below). English until a "
          "translator has checked the Kannada texts (docs/glossary-kannada.md); --lang overrides it.",
          choices=("en", "kn", "both")),
    Param("kannada_digits", False, "12(2), 13, 15(2), 17(3), 17(4)",
          "The Kannada papers write their figures in Kannada digits (೧,೨೦,೦೦೦.೦೦) instead of 0-9.",
          choices=(False, True)),
)
BY_NAME = {p.name: p for p in PARAMS}

# The rulings on the Act the rules and the accounts follow (shared/spec: the readings and their rulings).
# Not a parameter one sets: it is kept with the readings of each build and sealed with a close, so that a
# month closed under earlier rulings shows what a later one moved, with that ruling as its cause (issue
# 50, item 5). Name here each ruling once it is built.
RULINGS = "fourth reading: R18-R31"


class Parameters:
    """The values in force for one run: defaults, overridden by a parameters file."""

    def __init__(self, values: dict | None = None, as_of: dt.date | None = None, source: str = "defaults"):
        self.values = {p.name: p.default for p in PARAMS}
        self.as_of = as_of or dt.date.today()
        self.source = source
        for name, value in (values or {}).items():
            self.set(name, value)

    def set(self, name: str, value) -> None:
        if name not in BY_NAME:
            raise PoundError(f"unknown parameter {name!r}; the parameters are: " + ", ".join(BY_NAME))
        p = BY_NAME[name]
        d = p.default
        if name == "waterfall_order" and value == "pro_rata":     # R9: the one value that is not a list
            self.values[name] = value
            return
        if name == "waterfall_order" and not isinstance(value, list):
            raise PoundError("parameter waterfall_order must list expenses, feeding, fines and security once each, "
                             f"or be \"pro_rata\", not {value!r}")
        ok = (isinstance(value, bool) == isinstance(d, bool)) and (
            isinstance(value, type(d)) or (isinstance(d, int) and isinstance(value, int)))
        if not ok:
            raise PoundError(f"parameter {name} must be {type(d).__name__} like {d!r}, not {value!r}")
        if p.choices and value not in p.choices:
            raise PoundError(f"parameter {name} must be one of {', '.join(map(repr, p.choices))}, not {value!r}")
        if isinstance(d, int) and not isinstance(d, bool) and value < 0:
            raise PoundError(f"parameter {name} must not be negative")
        if name == "waterfall_order" and sorted(value) != sorted(d):
            raise PoundError("parameter waterfall_order must list expenses, feeding, fines and security once each, "
                             "or be \"pro_rata\"")
        if name == "short_classes":
            bad = [v for v in value if v not in ANIMAL_CLASSES]
            if bad:
                raise PoundError(f"parameter short_classes names unknown classes: {', '.join(bad)}")
        self.values[name] = value

    def __getitem__(self, name: str):
        return self.values[name]

    @classmethod
    def load(cls, path: Path | None, as_of: dt.date | None = None) -> Parameters:
        if path is None:
            return cls(as_of=as_of)
        if not path.exists():
            raise PoundError(f"parameters file {path} does not exist")
        text = path.read_text(encoding="utf-8")
        try:
            data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            raise PoundError(f"parameters file {path} cannot be read: {exc}") from None
        data = data.get("parameters", data)
        data.pop("as_of", None)          # the as-of date comes from --as-of
        return cls(data, as_of=as_of, source=str(path))

    def apply(self, con) -> None:
        """Make every value visible to SQL as getvariable('<name>'), and keep a table of them."""
        self.set_variables(con)
        con.execute("""CREATE OR REPLACE TABLE parameters (
            name VARCHAR, value VARCHAR, is_default BOOLEAN, section VARCHAR, reading VARCHAR)""")
        rows = [("as_of", self.as_of.isoformat(), False, "", "The date the accounts are drawn up to; nothing after it is due yet.")]
        rows += [(p.name, json.dumps(self.values[p.name]), self.values[p.name] == p.default, p.section, p.reading)
                 for p in PARAMS]
        rows.append(("rulings", json.dumps(RULINGS), True, "",
                     "The rulings on the Act the rules and the accounts follow (not set by a parameters file)."))
        con.execute("INSERT INTO parameters SELECT unnest(?), unnest(?), unnest(?), unnest(?), unnest(?)",
                    [list(col) for col in zip(*rows, strict=True)])

    def set_variables(self, con) -> None:
        """Every value as getvariable('<name>') on this connection (variables belong to one
        connection: the build's, on which every model is made)."""
        for name, value in self.values.items():
            if name == "waterfall_order":
                # pro_rata shares the proceeds over the dues; the odd paise follow the default order
                pro_rata = value == "pro_rata"
                con.execute("SET VARIABLE waterfall_pro_rata = ?", [pro_rata])
                value = BY_NAME[name].default if pro_rata else value
            con.execute(f"SET VARIABLE {name} = ?", [value])
        con.execute("SET VARIABLE as_of = ?", [self.as_of])

    def to_toml(self) -> str:
        lines = [f"# Parameters used for this run (source: {self.source}).",
                 "# Give this file to --params to reproduce the run; as_of is set with --as-of.",
                 f"as_of = {self.as_of.isoformat()}", ""]
        for p in PARAMS:
            lines.append(f"# s.{p.section}: {p.reading}")
            lines.append(f"{p.name} = {_toml(self.values[p.name])}")
        return "\n".join(lines) + "\n"


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)
