"""What the register workbook (template.py) says of each column: what to write, the section of the
Act the column serves, an example, and its title in Kannada.

A column is looked up by (register, column), then by column alone. A column declared in
core/registers.py that is not here still gets help, from its declaration (`what` and its kind),
so a column added there reaches the workbook with words. A Kannada title is written only where
the term is sure; a term of the Act whose Kannada is not certain (the feeding and watering
charges, the deposit on delivery under protest, the s.13 declaration, a clause of s.14(1), a bid
and its acceptance) is left blank rather than guessed (docs/design.md, "The register workbook").
"""

from __future__ import annotations

from typing import NamedTuple

from pipeline.core.columns import DATE, ENUM, FLAG, MONEY, Column, Register, describe_kind


class Help(NamedTuple):
    what: str
    section: str
    example: str
    kannada: str = ""


# The sheets, in Kannada, for the "how to fill in" sheet.
SHEET_KANNADA = {
    "impoundments": "ದೊಡ್ಡಿಗೆ ಸೇರಿಸಿದ ಪ್ರಾಣಿಗಳು", "releases": "ಬಿಡುಗಡೆ", "police_reports": "ಪೊಲೀಸ್ ವರದಿ",
    "sales": "ಹರಾಜು ಮಾರಾಟ", "complaints": "ದೂರುಗಳು", "security_deposits": "ಭದ್ರತಾ ಠೇವಣಿ",
    "removal_orders": "ತೆರವು ಆದೇಶಗಳು",
}

_BY_COLUMN = {
    "case_id": Help("the case number, one for each owner's animals of one class brought in", "s.12",
                    "M-2611-001", "ಪ್ರಕರಣ ಸಂಖ್ಯೆ"),
    "pound_id": Help("the pound, chosen from the list (reference/pounds.csv)", "s.12", "P01", "ದೊಡ್ಡಿಯ ಸಂಖ್ಯೆ"),
    "seized_on": Help("the day the animals were seized, if known", "s.10", "04-11-2026", "ವಶಪಡಿಸಿಕೊಂಡ ದಿನಾಂಕ"),
    "impounded_on": Help("the day the animals were brought into the pound", "s.12, s.15(1)", "05-11-2026",
                         "ದೊಡ್ಡಿಗೆ ಸೇರಿಸಿದ ದಿನಾಂಕ"),
    "impounded_time": Help("the time they were brought in, HH:MM", "s.15(1)", "09:30", "ದೊಡ್ಡಿಗೆ ಸೇರಿಸಿದ ಸಮಯ"),
    "place_of_seizure": Help("where they were seized", "s.10", "Hebbal tank bund", "ವಶಪಡಿಸಿಕೊಂಡ ಸ್ಥಳ"),
    "seized_by": Help("who seized them", "s.10", "Village accountant", "ವಶಪಡಿಸಿಕೊಂಡವರು"),
    "animal_class": Help("the class of animal, chosen from the list (the classes reference/rates.csv has rates "
                         "for)", "s.10(1), s.15(1)", "cattle", "ಪ್ರಾಣಿಯ ವರ್ಗ"),
    "description": Help("marks, colour, age", "s.15(2)", "brown cow, white forehead", "ವಿವರಣೆ"),
    "owner_id": Help("the owner's number, if the office gives one", "s.13(2)", "OW-0102",
                     "ಮಾಲೀಕರ ಗುರುತು ಸಂಖ್ಯೆ"),
    "owner_name": Help("the owner's name, if known", "s.12", "Mahadevappa", "ಮಾಲೀಕರ ಹೆಸರು"),
    "owner_village": Help("the owner's village, if known", "s.12", "Hebbal", "ಮಾಲೀಕರ ಗ್ರಾಮ"),
    "release_id": Help("the number of this delivery out of the pound", "s.12(2)", "R-0031", "ಬಿಡುಗಡೆ ಸಂಖ್ಯೆ"),
    "released_on": Help("the day the animals left the pound", "s.12, s.16(1)", "07-11-2026", "ಬಿಡುಗಡೆ ದಿನಾಂಕ"),
    "basis": Help("why they were let go, chosen from the list", "s.12, s.16, s.17(3), s.19(2)", "s12_payment",
                  "ಬಿಡುಗಡೆಯ ಆಧಾರ"),
    "released_to": Help("who took them", "s.12(2)", "Mahadevappa (owner)", "ಯಾರಿಗೆ ಒಪ್ಪಿಸಲಾಯಿತು"),
    "fines_paid": Help("the fines paid, in rupees", "s.10(1), s.12(1)", "600.00", "ಪಾವತಿಸಿದ ದಂಡ"),
    "charges_paid": Help("the feeding and watering charges paid, in rupees: a pound's workbook works out on its "
                         "sheet 'what is due' what was due, counting the days in the pound (the day of impounding "
                         "and the day of release both count)", "s.12(1), s.18(3)", "400.00",
                         "ಪಾವತಿಸಿದ ಆಹಾರ ಮತ್ತು ನೀರಿನ ಶುಲ್ಕ"),
    "protest_deposit": Help("what was deposited on a delivery under protest, in rupees", "s.16(1)", "1000.00"),
    "declaration_made": Help("yes if the owner made the declaration of ownership", "s.13(1), s.16(2)", "yes"),
    "security_deposit_id": Help("the deposit taken before this release (its deposit_id), in a notified area",
                                "s.13(1)", "D-0007", "ಭದ್ರತಾ ಠೇವಣಿ ಸಂಖ್ಯೆ"),
    "receipt_signed": Help("yes if the owner signed the register for the animals", "s.12(2), s.17(4)", "yes",
                           "ಸ್ವೀಕೃತಿಗೆ ಸಹಿ ಮಾಡಲಾಗಿದೆಯೇ"),
    "court_order_ref": Help("the court's order, for a release a court ordered", "s.19(2)", "OS 114/2026",
                            "ನ್ಯಾಯಾಲಯದ ಆದೇಶದ ಸಂಖ್ಯೆ"),
    "reported_on": Help("the day the unclaimed animals were reported to the police", "s.15(1)", "13-11-2026",
                        "ಪೊಲೀಸರಿಗೆ ವರದಿ ಮಾಡಿದ ದಿನಾಂಕ"),
    "reported_to": Help("the police station or officer reported to", "s.15(1)", "Hebbal police station",
                        "ವರದಿ ಸ್ವೀಕರಿಸಿದ ಅಧಿಕಾರಿ"),
    "notice_on": Help("the day the officer put up the notice", "s.15(2)", "14-11-2026", "ನೋಟಿಸ್ ಪ್ರಕಟಿಸಿದ ದಿನಾಂಕ"),
    "proclamation_on": Help("the day it was proclaimed by beat of drum in the village or area", "s.15(2)",
                            "14-11-2026", "ಡಂಗುರ ಸಾರಿದ ದಿನಾಂಕ"),
    "market_proclamation_on": Help("the day it was proclaimed by beat of drum at the market place near where the "
                                   "animals were seized (left blank while it is not; an auction before it is a "
                                   "finding)", "s.15(2)", "15-11-2026", "ಮಾರುಕಟ್ಟೆ ಸ್ಥಳದಲ್ಲಿ ಡಂಗುರ ಸಾರಿದ ದಿನಾಂಕ"),
    "sale_id": Help("the number of this auction (a rejected bid is an auction too)", "s.15(3), s.17",
                    "S-004", "ಮಾರಾಟ ಸಂಖ್ಯೆ"),
    "path": Help("why the animals were sold, chosen from the list", "s.15(3), s.17(1)", "s15_unclaimed",
                 "ಮಾರಾಟದ ಆಧಾರ"),
    "sale_on": Help("the day of the auction", "s.15(3)", "22-11-2026", "ಹರಾಜಿನ ದಿನಾಂಕ"),
    "head_offered": Help("how many animals were put up", "s.15(3)", "2", "ಹರಾಜಿಗೆ ಇಟ್ಟ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    "head_sold": Help("how many were sold (0 for a rejected bid)", "s.15(3), s.17(1)", "2",
                      "ಮಾರಾಟವಾದ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    "bid_amount": Help("the highest bid, in rupees", "s.15(3)", "9000.00"),
    "accepted": Help("yes if the bid was accepted, no if it was rejected as not a fair price", "s.15(3) proviso",
                     "yes"),
    "buyer_name": Help("the buyer's name", "s.19(1)", "Kaveri Farms", "ಖರೀದಿದಾರರ ಹೆಸರು"),
    "buyer_person_id": Help("the buyer's person_id, if the buyer is in reference/officials.csv", "s.19(1)", "",
                            "ಖರೀದಿದಾರರ ಗುರುತು ಸಂಖ್ಯೆ"),
    "conducted_by": Help("the officer who held the auction (person_id in reference/officials.csv)", "s.15(3)",
                         "SO01", "ಹರಾಜು ನಡೆಸಿದ ಅಧಿಕಾರಿ"),
    "sale_expenses": Help("the expenses of the sale, in rupees", "s.17(2)", "300.00", "ಮಾರಾಟದ ವೆಚ್ಚ"),
    "balance_paid": Help("the balance of the purchase money paid to the owner, in rupees", "s.17(3), s.17(4)",
                         "2500.00", "ಮಾಲೀಕರಿಗೆ ಪಾವತಿಸಿದ ಉಳಿಕೆ ಮೊತ್ತ"),
    "disposal_note": Help("how animals not sold were disposed of", "s.15(3) proviso", "", "ವಿಲೇವಾರಿ ಟಿಪ್ಪಣಿ"),
    "owner_appeared_on": Help("for a sale under s.17: the day the owner or his agent came to the pound and "
                              "refused or omitted to pay", "s.17(1)", "05-11-2026"),
    "appeared_person": Help("for a sale under s.17: the name of the owner or agent who came", "s.17(1)",
                            "Manjunath"),
    "balance_paid_on": Help("the day the balance was paid to the owner (left blank while it is not paid; not "
                            "taken within the claim days after the sale, it goes to the District Magistrate)",
                            "s.17(3), s.18(5)", "12-11-2026"),
    "balance_receipt_signed": Help("yes if the owner signed a receipt for the balance paid to him", "s.17(4)",
                                   "yes"),
    "filed_on": Help("the day the complaint of illegal seizure was made", "s.16(2)", "10-11-2026",
                     "ದೂರು ಸಲ್ಲಿಸಿದ ದಿನಾಂಕ"),
    "decided_on": Help("the day it was decided", "s.16(2)", "30-11-2026", "ತೀರ್ಮಾನವಾದ ದಿನಾಂಕ"),
    "outcome": Help("how it ended, chosen from the list (pending while undecided)", "s.13(2), s.16(2)",
                    "pending", "ದೂರಿನ ತೀರ್ಮಾನ"),
    "deposit_id": Help("the number of this security deposit", "s.13(1), s.18(4)", "D-0007", "ಠೇವಣಿ ಸಂಖ್ಯೆ"),
    "deposited_on": Help("the day the security was deposited", "s.13(1)", "07-11-2026", "ಠೇವಣಿ ಇಟ್ಟ ದಿನಾಂಕ"),
    "refund_applied_on": Help("the day the depositor applied for the refund", "s.13(2)", "",
                              "ಹಿಂಪಾವತಿಗೆ ಅರ್ಜಿ ಸಲ್ಲಿಸಿದ ದಿನಾಂಕ"),
    "refunded_on": Help("the day it was refunded", "s.13(2)", "", "ಹಿಂಪಾವತಿ ದಿನಾಂಕ"),
    "refunded_amount": Help("how much was refunded, in rupees", "s.13(2)", "", "ಹಿಂಪಾವತಿ ಮೊತ್ತ"),
    "forfeited_on": Help("the day it was forfeited (the owner's animals impounded again within six months)",
                         "s.13(2)", "", "ಮುಟ್ಟುಗೋಲು ದಿನಾಂಕ"),
    "forfeited_amount": Help("how much was forfeited, in rupees", "s.13(2)", "", "ಮುಟ್ಟುಗೋಲು ಮೊತ್ತ"),
    "order_id": Help("the number of the Tahsildar's order", "s.14(1)", "RO-003", "ಆದೇಶ ಸಂಖ್ಯೆ"),
    "taluk": Help("the taluk of the order, chosen from the list (the taluks of reference/pounds.csv)",
                  "s.14(1)", "Mysuru", "ತಾಲ್ಲೂಕು"),
    "clause": Help("the clause of s.14(1) the order was made under, i or ii", "s.14(1)", "i"),
    "owner_head_count": Help("how many animals the owner keeps in all", "s.14(1)", "25",
                             "ಮಾಲೀಕರ ಒಟ್ಟು ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    "issued_on": Help("the day the order was issued", "s.14(1)", "02-11-2026", "ಆದೇಶ ಹೊರಡಿಸಿದ ದಿನಾಂಕ"),
    "comply_by": Help("the last day to remove the animals", "s.14(1)", "09-11-2026",
                      "ಪಾಲಿಸಬೇಕಾದ ಕೊನೆಯ ದಿನಾಂಕ"),
    "complied_on": Help("the day the owner removed them", "s.14(1)", "", "ಪಾಲಿಸಿದ ದಿನಾಂಕ"),
    "police_removal_on": Help("the day the police removed them", "s.14(2)", "",
                              "ಪೊಲೀಸರು ತೆರವುಗೊಳಿಸಿದ ದಿನಾಂಕ"),
    "fine_imposed": Help("the fine imposed for not obeying the order, in rupees (at most 1,000)", "s.14(3)", "",
                         "ವಿಧಿಸಿದ ದಂಡ"),
    "fine_paid_on": Help("the day the fine was paid", "s.14(3)", "", "ದಂಡ ಪಾವತಿಸಿದ ದಿನಾಂಕ"),
    "reseizure_of": Help("for animals delivered under protest and seized again: the case (its case_id) they were "
                         "delivered from; what a re-seizure owes is worked out by the office, not the sheet "
                         "'what is due'", "s.16(2)", "M-2610-004", "ಮರುಜಪ್ತಿ ಮಾಡಿದ ಮೂಲ ಪ್ರಕರಣ"),
    "correction_note": Help("only when this row corrects, strikes out or restores a row already sent: why "
                            "(see 'how to fill in')", "", "Receipt book shows Rs 400", "ತಿದ್ದುಪಡಿ ಟಿಪ್ಪಣಿ"),
    "void": Help("yes only to strike out a row already sent in error (with a correction_note)", "", "",
                 "ರದ್ದು"),
}

_BY_REGISTER = {
    ("local_fund", "entry_id"): Help("the number of this entry (the ledger's own, or one the office gives)",
                                     "s.18(2)", "LF-014"),
    ("local_fund", "local_authority_id"): Help("the local authority whose fund this is, chosen from the list "
                                               "(reference/local_authorities.csv)", "s.18(2)", "LA01"),
    ("local_fund", "entry_on"): Help("the day the fund was credited", "s.18(2)", "12-11-2026"),
    ("local_fund", "amount"): Help("the amount credited, in rupees", "s.18(2)", "1,200.00"),
    ("local_fund", "reference"): Help("the case the credit is for (case_id), chosen from the list, or the "
                                      "receipt's number", "s.18(2)", "M-2611-001"),
    ("local_fund", "head"): Help("what was credited: fines, surplus (from the District Magistrate), or other",
                                 "s.18(2), s.18(5)", "fines"),
    ("dm_deposit", "entry_id"): Help("the number of this entry of the deposit account", "s.18(5)", "DM-004"),
    ("dm_deposit", "entry_on"): Help("the day of the entry", "s.18(5)", "02-11-2026"),
    ("dm_deposit", "kind"): Help("receipt (surplus of a sale received), credit_to_local_fund (after six months "
                                 "unclaimed), or refund_to_claimant", "s.18(5)", "receipt"),
    ("dm_deposit", "amount"): Help("the amount, in rupees", "s.18(5)", "13,800.00"),
    ("dm_deposit", "reference"): Help("the case the surplus came from (case_id), chosen from the list", "s.18(5)",
                                      "M-2608-003"),
    ("dm_deposit", "local_authority_id"): Help("the local authority of the pound the case was of, chosen from "
                                               "the list", "s.18(5)", "LA01"),
    ("surplus_claims", "claim_id"): Help("the number of this claim in the District Magistrate's office", "s.18(5)",
                                         "CL-007"),
    ("surplus_claims", "case_id"): Help("the case whose sale surplus is claimed, chosen from the list", "s.18(5)",
                                        "M-2608-003"),
    ("surplus_claims", "claimant"): Help("who made the claim, by name", "s.18(5)", "Mahadevappa (owner)"),
    ("surplus_claims", "preferred_on"): Help("the day the claim was made to the District Magistrate: within six "
                                             "months of his receiving the surplus for a refund to be in order",
                                             "s.18(5)", "10-01-2027"),
    ("surplus_claims", "established_on"): Help("the day the claim was established (blank while it is not): on or "
                                               "before the refund's day", "s.18(5)", "05-02-2027"),
    ("surplus_claims", "amount"): Help("the amount claimed, in rupees", "s.18(5)", "13,800.00"),
    ("impoundments", "head_count"): Help("how many animals of this class (at least 1)", "s.10(1), s.12", "2",
                                         "ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    ("releases", "head_count"): Help("how many animals left the pound in this delivery", "s.12", "2",
                                     "ಬಿಡುಗಡೆಯಾದ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    ("removal_orders", "head_count"): Help("how many animals the order names", "s.14(1)", "25",
                                           "ಆದೇಶದಲ್ಲಿರುವ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ"),
    ("security_deposits", "amount"): Help("the security deposited, in rupees", "s.13(1), s.18(4)", "1000.00",
                                          "ಠೇವಣಿ ಮೊತ್ತ"),
    ("security_deposits", "sale_id"): Help("when the security was kept out of a sale's proceeds: that sale's sale_id",
                                           "s.17(2)", "S-004"),
    ("security_deposits", "owner_id"): Help("the depositor's owner number", "s.13(2)", "OW-0102",
                                            "ಮಾಲೀಕರ ಗುರುತು ಸಂಖ್ಯೆ"),
}


def column_help(reg: Register, col: Column) -> Help:
    """The help of a column: its own words, or words drawn from its declaration."""
    found = _BY_REGISTER.get((reg.name, col.name)) or _BY_COLUMN.get(col.name)
    if found is not None:
        return found
    example = {DATE: "05-11-2026", MONEY: "600.00", FLAG: "no"}.get(col.kind, col.values[0] if col.kind == ENUM else "")
    return Help(col.what or col.name.replace("_", " "), reg.section, example)


# What a listed value means, where it is a code.
VALUE_WORDS = {
    "s12_payment": "fines and charges paid", "s16_protest": "delivered under protest",
    "s17_remainder": "left over after a s.17 sale", "court_order": "ordered by a court",
    "s15_unclaimed": "not claimed", "s17_refusal": "the owner would not pay",
    "s15_disposal": "disposed of after a bid rejected as not a fair price",
    "i": "grazing land too small for the residents' cattle: dry or useless cattle of a resident",
    "ii": "crops at risk from a non-resident owning more than twenty head",
}


def takes(col: Column) -> str:
    """What a cell of the column takes, in the words of the loader's messages (a listed code with its meaning)."""
    if col.kind == ENUM:
        kind = "one of: " + ", ".join(f"{v} ({VALUE_WORDS[v]})" if v in VALUE_WORDS else v for v in col.values)
    else:
        kind = describe_kind(col)
    return kind + ("; required" if col.required else "; may be left blank")
