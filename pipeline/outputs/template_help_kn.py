"""What to write in each column of the register workbook, in Kannada, beside the English of
template_help.py: shown under the column's Kannada title on the "how to fill in" sheet and in the
note on each column's name. Looked up as the English is, by (register, column) then by column; a
column without Kannada words here shows the English alone. Awaiting a translator's check, as the
papers' texts are (docs/glossary-kannada.md).
"""

from __future__ import annotations

WHAT_BY_COLUMN = {
    "case_id": "ಒಬ್ಬ ಮಾಲೀಕರ ಒಂದು ವರ್ಗದ ಪ್ರಾಣಿಗಳನ್ನು ತಂದಾಗ ನೀಡುವ ಒಂದು ಸಂಖ್ಯೆ",
    "pound_id": "ಕೊಂಡವಾಡೆ, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ (reference/pounds.csv)",
    "seized_on": "ಪ್ರಾಣಿಗಳನ್ನು ಹಿಡಿದ ದಿನಾಂಕ, ತಿಳಿದಿದ್ದರೆ",
    "impounded_on": "ಪ್ರಾಣಿಗಳನ್ನು ಕೊಂಡವಾಡೆಗೆ ತಂದ ದಿನಾಂಕ",
    "impounded_time": "ಕೊಂಡವಾಡೆಗೆ ತಂದ ಸಮಯ, ಗಂ:ನಿ (HH:MM)",
    "place_of_seizure": "ಪ್ರಾಣಿಗಳನ್ನು ಹಿಡಿದ ಸ್ಥಳ",
    "seized_by": "ಪ್ರಾಣಿಗಳನ್ನು ಹಿಡಿದವರು",
    "animal_class": "ಪ್ರಾಣಿಯ ವರ್ಗ, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ (reference/rates.csv ನಲ್ಲಿ ದರವಿರುವ ವರ್ಗಗಳು)",
    "description": "ಗುರುತುಗಳು, ಬಣ್ಣ, ವಯಸ್ಸು",
    "owner_id": "ಕಚೇರಿ ನೀಡಿದ್ದರೆ, ಮಾಲೀಕರ ಸಂಖ್ಯೆ",
    "owner_name": "ಮಾಲೀಕರ ಹೆಸರು, ತಿಳಿದಿದ್ದರೆ",
    "owner_village": "ಮಾಲೀಕರ ಗ್ರಾಮ, ತಿಳಿದಿದ್ದರೆ",
    "release_id": "ಕೊಂಡವಾಡೆಯಿಂದ ಈ ಬಾರಿ ಒಪ್ಪಿಸಿದ ಸಂಖ್ಯೆ",
    "released_on": "ಪ್ರಾಣಿಗಳು ಕೊಂಡವಾಡೆಯಿಂದ ಹೊರಟ ದಿನಾಂಕ",
    "basis": "ಅವುಗಳನ್ನು ಏಕೆ ಬಿಡಲಾಯಿತು, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ",
    "released_to": "ಅವುಗಳನ್ನು ತೆಗೆದುಕೊಂಡು ಹೋದವರು",
    "fines_paid": "ಪಾವತಿಸಿದ ದಂಡ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "charges_paid": "ಪಾವತಿಸಿದ ಮೇವು ಮತ್ತು ನೀರಿನ ಶುಲ್ಕ, ರೂಪಾಯಿಗಳಲ್ಲಿ: ಕೊಂಡವಾಡೆಯ ವರ್ಕ್‌ಬುಕ್‌ನ 'what is due' ಹಾಳೆ "
                    "ಕೊಂಡವಾಡೆಯಲ್ಲಿದ್ದ ದಿನಗಳನ್ನು ಎಣಿಸಿ (ತಂದ ದಿನ ಮತ್ತು ಬಿಡುಗಡೆಯ ದಿನ ಎರಡೂ ಸೇರಿ) ಬಾಕಿಯನ್ನು ಲೆಕ್ಕ ಹಾಕುತ್ತದೆ",
    "protest_deposit": "ಆಕ್ಷೇಪಣೆಯೊಂದಿಗೆ ಒಪ್ಪಿಸುವಾಗ ಇಟ್ಟ ಠೇವಣಿ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "declaration_made": "ಮಾಲೀಕರು ಮಾಲೀಕತ್ವದ ಘೋಷಣೆ ಮಾಡಿದ್ದರೆ yes",
    "security_deposit_id": "ಈ ಬಿಡುಗಡೆಗೆ ಮುನ್ನ ಪಡೆದ ಭದ್ರತಾ ಠೇವಣಿ (ಅದರ deposit_id), ಅಧಿಸೂಚಿತ ಪ್ರದೇಶದಲ್ಲಿ",
    "receipt_signed": "ಪ್ರಾಣಿಗಳಿಗಾಗಿ ಮಾಲೀಕರು ರಿಜಿಸ್ಟರ್‌ನಲ್ಲಿ ಸಹಿ ಮಾಡಿದ್ದರೆ yes",
    "court_order_ref": "ನ್ಯಾಯಾಲಯ ಆದೇಶಿಸಿದ ಬಿಡುಗಡೆಗೆ, ಆ ಆದೇಶದ ಸಂಖ್ಯೆ",
    "reported_on": "ಯಾರೂ ಕೇಳಿಕೊಂಡು ಬಾರದ ಪ್ರಾಣಿಗಳನ್ನು ಪೊಲೀಸರಿಗೆ ವರದಿ ಮಾಡಿದ ದಿನಾಂಕ",
    "reported_to": "ವರದಿ ಮಾಡಿದ ಪೊಲೀಸ್ ಠಾಣೆ ಅಥವಾ ಅಧಿಕಾರಿ",
    "notice_on": "ಅಧಿಕಾರಿ ಸೂಚನೆಯನ್ನು ಪ್ರದರ್ಶಿಸಿದ ದಿನಾಂಕ",
    "proclamation_on": "ಡಂಗುರ ಸಾರಿ ಘೋಷಿಸಿದ ದಿನಾಂಕ",
    "market_proclamation_on": "ಹಿಡಿದ ಸ್ಥಳದ ಬಳಿಯ ಸಂತೆ ಸ್ಥಳದಲ್ಲಿ ಡಂಗುರ ಸಾರಿ ಘೋಷಿಸಿದ ದಿನಾಂಕ (ಘೋಷಿಸುವವರೆಗೆ ಖಾಲಿ ಬಿಡಿ)",
    "sale_id": "ಈ ಹರಾಜಿನ ಸಂಖ್ಯೆ (ತಿರಸ್ಕರಿಸಿದ ಬಿಡ್ ಕೂಡ ಒಂದು ಹರಾಜು)",
    "path": "ಪ್ರಾಣಿಗಳನ್ನು ಏಕೆ ಮಾರಲಾಯಿತು, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ",
    "sale_on": "ಹರಾಜಿನ ದಿನಾಂಕ",
    "head_offered": "ಹರಾಜಿಗೆ ಇಟ್ಟ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ",
    "head_sold": "ಮಾರಾಟವಾದ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ (ತಿರಸ್ಕರಿಸಿದ ಬಿಡ್‌ಗೆ 0)",
    "bid_amount": "ಅತ್ಯಧಿಕ ಬಿಡ್, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "accepted": "ಬಿಡ್ ಒಪ್ಪಿದರೆ yes, ನ್ಯಾಯವಾದ ಬೆಲೆಯಲ್ಲವೆಂದು ತಿರಸ್ಕರಿಸಿದರೆ no",
    "buyer_name": "ಖರೀದಿದಾರರ ಹೆಸರು",
    "buyer_person_id": "ಖರೀದಿದಾರರು reference/officials.csv ನಲ್ಲಿದ್ದರೆ, ಅವರ person_id",
    "conducted_by": "ಹರಾಜು ನಡೆಸಿದ ಅಧಿಕಾರಿ (reference/officials.csv ನ person_id)",
    "sale_expenses": "ಮಾರಾಟದ ವೆಚ್ಚ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "balance_paid": "ಖರೀದಿ ಹಣದಲ್ಲಿ ಮಾಲೀಕರಿಗೆ ಪಾವತಿಸಿದ ಉಳಿಕೆ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "disposal_note": "ಮಾರಾಟವಾಗದ ಪ್ರಾಣಿಗಳನ್ನು ಹೇಗೆ ವಿಲೇವಾರಿ ಮಾಡಲಾಯಿತು",
    "owner_appeared_on": "ಪ್ರಕರಣ 17ರ ಮಾರಾಟಕ್ಕೆ: ಮಾಲೀಕರು ಅಥವಾ ಅವರ ಪ್ರತಿನಿಧಿ ಕೊಂಡವಾಡೆಗೆ ಬಂದು ಪಾವತಿಸಲು ನಿರಾಕರಿಸಿದ "
                         "ಅಥವಾ ತಪ್ಪಿದ ದಿನಾಂಕ",
    "appeared_person": "ಪ್ರಕರಣ 17ರ ಮಾರಾಟಕ್ಕೆ: ಬಂದ ಮಾಲೀಕರ ಅಥವಾ ಪ್ರತಿನಿಧಿಯ ಹೆಸರು",
    "balance_paid_on": "ಉಳಿಕೆಯನ್ನು ಮಾಲೀಕರಿಗೆ ಪಾವತಿಸಿದ ದಿನಾಂಕ (ಪಾವತಿಸುವವರೆಗೆ ಖಾಲಿ ಬಿಡಿ; ಮಾರಾಟದ ನಂತರದ ದಿನಗಳೊಳಗೆ "
                       "ಪಡೆಯದಿದ್ದರೆ ಅದು ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿಯವರಿಗೆ ಹೋಗುತ್ತದೆ)",
    "balance_receipt_signed": "ಪಾವತಿಸಿದ ಉಳಿಕೆಗೆ ಮಾಲೀಕರು ರಸೀದಿಗೆ ಸಹಿ ಮಾಡಿದ್ದರೆ yes",
    "filed_on": "ಅಕ್ರಮ ಹಿಡಿಯುವಿಕೆಯ ದೂರು ಸಲ್ಲಿಸಿದ ದಿನಾಂಕ",
    "decided_on": "ದೂರು ತೀರ್ಮಾನವಾದ ದಿನಾಂಕ",
    "outcome": "ದೂರು ಹೇಗೆ ಮುಗಿಯಿತು, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ (ತೀರ್ಮಾನವಾಗುವವರೆಗೆ pending)",
    "deposit_id": "ಈ ಭದ್ರತಾ ಠೇವಣಿಯ ಸಂಖ್ಯೆ",
    "deposited_on": "ಭದ್ರತಾ ಠೇವಣಿ ಇಟ್ಟ ದಿನಾಂಕ",
    "refund_applied_on": "ಠೇವಣಿದಾರರು ಹಿಂಪಾವತಿಗೆ ಅರ್ಜಿ ಸಲ್ಲಿಸಿದ ದಿನಾಂಕ",
    "refunded_on": "ಠೇವಣಿಯನ್ನು ಹಿಂದಿರುಗಿಸಿದ ದಿನಾಂಕ",
    "refunded_amount": "ಹಿಂದಿರುಗಿಸಿದ ಮೊತ್ತ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "forfeited_on": "ಠೇವಣಿ ಮುಟ್ಟುಗೋಲಾದ ದಿನಾಂಕ (ಆರು ತಿಂಗಳೊಳಗೆ ಮಾಲೀಕರ ಪ್ರಾಣಿಗಳನ್ನು ಮತ್ತೆ ಕೊಂಡವಾಡೆಗೆ ಹಾಕಿದಾಗ)",
    "forfeited_amount": "ಮುಟ್ಟುಗೋಲಾದ ಮೊತ್ತ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    "order_id": "ತಹಸೀಲ್ದಾರರ ಆದೇಶದ ಸಂಖ್ಯೆ",
    "taluk": "ಆದೇಶದ ತಾಲ್ಲೂಕು, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ (reference/pounds.csv ನ ತಾಲ್ಲೂಕುಗಳು)",
    "clause": "ಆದೇಶ ಮಾಡಿದ ಪ್ರಕರಣ 14(1)ರ ಖಂಡ, i ಅಥವಾ ii",
    "owner_head_count": "ಮಾಲೀಕರು ಒಟ್ಟು ಇಟ್ಟುಕೊಂಡಿರುವ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ",
    "issued_on": "ಆದೇಶ ಹೊರಡಿಸಿದ ದಿನಾಂಕ",
    "comply_by": "ಪ್ರಾಣಿಗಳನ್ನು ತೆರವುಗೊಳಿಸಲು ಕೊನೆಯ ದಿನಾಂಕ",
    "complied_on": "ಮಾಲೀಕರು ಪ್ರಾಣಿಗಳನ್ನು ತೆರವುಗೊಳಿಸಿದ ದಿನಾಂಕ",
    "police_removal_on": "ಪೊಲೀಸರು ಪ್ರಾಣಿಗಳನ್ನು ತೆರವುಗೊಳಿಸಿದ ದಿನಾಂಕ",
    "fine_imposed": "ಆದೇಶ ಪಾಲಿಸದ್ದಕ್ಕೆ ವಿಧಿಸಿದ ದಂಡ, ರೂಪಾಯಿಗಳಲ್ಲಿ (ಗರಿಷ್ಠ 1,000)",
    "fine_paid_on": "ದಂಡ ಪಾವತಿಸಿದ ದಿನಾಂಕ",
    "reseizure_of": "ಆಕ್ಷೇಪಣೆಯೊಂದಿಗೆ ಒಪ್ಪಿಸಿ ಮತ್ತೆ ಹಿಡಿದ ಪ್ರಾಣಿಗಳಿಗೆ: ಅವುಗಳನ್ನು ಒಪ್ಪಿಸಿದ ಮೂಲ ಪ್ರಕರಣ (ಅದರ case_id); "
                    "ಮರುಜಪ್ತಿಯ ಬಾಕಿಯನ್ನು ಕಚೇರಿ ಲೆಕ್ಕ ಹಾಕುತ್ತದೆ, 'what is due' ಹಾಳೆಯಲ್ಲ",
    "correction_note": "ಈಗಾಗಲೇ ಕಳುಹಿಸಿದ ಸಾಲನ್ನು ಈ ಸಾಲು ತಿದ್ದಿದಾಗ, ರದ್ದುಪಡಿಸಿದಾಗ ಅಥವಾ ಮರಳಿ ತಂದಾಗ ಮಾತ್ರ: ಏಕೆ "
                       "('how to fill in' ನೋಡಿ)",
    "void": "ತಪ್ಪಾಗಿ ಕಳುಹಿಸಿದ ಸಾಲನ್ನು ರದ್ದುಪಡಿಸಲು ಮಾತ್ರ yes (correction_note ಜೊತೆಗೆ)",
}

WHAT_BY_REGISTER = {
    ("local_fund", "entry_id"): "ಈ ನಮೂದಿನ ಸಂಖ್ಯೆ (ಲೆಡ್ಜರ್‌ನದು, ಅಥವಾ ಕಚೇರಿ ನೀಡುವುದು)",
    ("local_fund", "local_authority_id"): "ಯಾರ ನಿಧಿಯೋ ಆ ಸ್ಥಳೀಯ ಸಂಸ್ಥೆ, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ (reference/local_authorities.csv)",
    ("local_fund", "entry_on"): "ನಿಧಿಗೆ ಜಮಾ ಮಾಡಿದ ದಿನಾಂಕ",
    ("local_fund", "amount"): "ಜಮಾ ಮಾಡಿದ ಮೊತ್ತ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    ("local_fund", "reference"): "ಜಮೆ ಯಾವ ಪ್ರಕರಣಕ್ಕೆ (case_id), ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ, ಅಥವಾ ರಸೀದಿಯ ಸಂಖ್ಯೆ",
    ("local_fund", "head"): "ಏನನ್ನು ಜಮಾ ಮಾಡಲಾಯಿತು: fines (ದಂಡ), surplus (ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿಯವರಿಂದ ಹೆಚ್ಚುವರಿ), ಅಥವಾ other",
    ("dm_deposit", "entry_id"): "ಠೇವಣಿ ಖಾತೆಯ ಈ ನಮೂದಿನ ಸಂಖ್ಯೆ",
    ("dm_deposit", "entry_on"): "ನಮೂದಿನ ದಿನಾಂಕ",
    ("dm_deposit", "kind"): "receipt (ಮಾರಾಟದ ಹೆಚ್ಚುವರಿ ಸ್ವೀಕರಿಸಿದ್ದು), credit_to_local_fund (ಆರು ತಿಂಗಳು ಯಾರೂ "
                            "ಕೇಳದ ನಂತರ), ಅಥವಾ refund_to_claimant",
    ("dm_deposit", "amount"): "ಮೊತ್ತ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    ("dm_deposit", "reference"): "ಹೆಚ್ಚುವರಿ ಬಂದ ಪ್ರಕರಣ (case_id), ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ",
    ("dm_deposit", "local_authority_id"): "ಪ್ರಕರಣದ ಕೊಂಡವಾಡೆಯ ಸ್ಥಳೀಯ ಸಂಸ್ಥೆ, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ",
    ("surplus_claims", "claim_id"): "ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿಯವರ ಕಚೇರಿಯಲ್ಲಿ ಈ ಕೋರಿಕೆಯ ಸಂಖ್ಯೆ",
    ("surplus_claims", "case_id"): "ಯಾವ ಪ್ರಕರಣದ ಮಾರಾಟದ ಹೆಚ್ಚುವರಿಯನ್ನು ಕೋರಲಾಗಿದೆಯೋ ಆ ಪ್ರಕರಣ, ಪಟ್ಟಿಯಿಂದ ಆರಿಸಿ",
    ("surplus_claims", "claimant"): "ಕೋರಿಕೆ ಸಲ್ಲಿಸಿದವರ ಹೆಸರು",
    ("surplus_claims", "preferred_on"): "ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿಯವರಿಗೆ ಕೋರಿಕೆ ಸಲ್ಲಿಸಿದ ದಿನಾಂಕ: ಹಿಂಪಾವತಿ ಕ್ರಮಬದ್ಧವಾಗಲು ಅವರು "
                                        "ಹೆಚ್ಚುವರಿ ಸ್ವೀಕರಿಸಿದ ಆರು ತಿಂಗಳೊಳಗೆ",
    ("surplus_claims", "established_on"): "ಕೋರಿಕೆ ಸಾಬೀತಾದ ದಿನಾಂಕ (ಆಗುವವರೆಗೆ ಖಾಲಿ): ಹಿಂಪಾವತಿಯ ದಿನದಂದು ಅಥವಾ ಮುಂಚೆ",
    ("surplus_claims", "amount"): "ಕೋರಿದ ಮೊತ್ತ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    ("impoundments", "head_count"): "ಈ ವರ್ಗದ ಎಷ್ಟು ಪ್ರಾಣಿಗಳು (ಕನಿಷ್ಠ 1)",
    ("releases", "head_count"): "ಈ ಬಾರಿ ಕೊಂಡವಾಡೆಯಿಂದ ಹೊರಟ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ",
    ("removal_orders", "head_count"): "ಆದೇಶದಲ್ಲಿ ಹೆಸರಿಸಿದ ಪ್ರಾಣಿಗಳ ಸಂಖ್ಯೆ",
    ("security_deposits", "amount"): "ಇಟ್ಟ ಭದ್ರತಾ ಠೇವಣಿ, ರೂಪಾಯಿಗಳಲ್ಲಿ",
    ("security_deposits", "sale_id"): "ಭದ್ರತಾ ಠೇವಣಿಯನ್ನು ಮಾರಾಟದ ಹಣದಿಂದ ಕಳೆದಿದ್ದರೆ: ಆ ಮಾರಾಟದ sale_id",
    ("security_deposits", "owner_id"): "ಠೇವಣಿದಾರರ ಮಾಲೀಕ ಸಂಖ್ಯೆ",
}


def what_kannada(register: str, column: str) -> str:
    """What to write in a column, in Kannada ("" where there are no Kannada words for it yet)."""
    return WHAT_BY_REGISTER.get((register, column)) or WHAT_BY_COLUMN.get(column, "")
