"""Page 1's figures by their measure ids, however old the record that holds them.

Page 1's figures (pipeline/reports/glance.py) each carry a stable measure id; `pound close` seals it
in close.json's `signed` beside the label, and so does the review printed for a meeting
(printed_reviews.figures). A close or a printed review made before the figures carried ids holds
labels only: this module is the one place that reads those, mapping each label page 1 printed then
to its measure. Every reader of a sealed page 1 (load/closes.py for marts/adjustments,
close/verify.py, close/printed.py) goes through `measure_of` or `by_measure`; the labels are then
words only, free to be reworded.
"""

from __future__ import annotations

import re

# the labels page 1 printed before its figures carried a measure id, and the measure of each
LABELS_BEFORE_IDS = {
    "heads impounded": "heads_impounded",
    "heads released": "heads_released",
    "heads sold": "heads_sold",
    "heads in the pounds at month end": "heads_end",
    "money received (Rs)": "received",
    **{f"findings waiting up to the month, {s}": f"page1_waiting_{s}" for s in ("high", "medium", "low")},
    "days the oldest has waited": "page1_oldest_days",
    **{f"of them of the month itself, {s}": f"page1_of_month_{s}" for s in ("high", "medium", "low")},
    "credits and receipts overdue": "page1_overdue_credits",
    "money overdue, not credited (Rs)": "page1_overdue_money",
}
_SECTION = re.compile(r"of which under s\.(\S+) \(Rs\)")
_DEADLINES = re.compile(r"deadlines in the \d+ days after the month")


def measure_of(figure: dict) -> str | None:
    """The measure id of one sealed figure: its own, or that of the label it was sealed with before
    figures carried ids (None for a label page 1 never printed)."""
    if figure.get("measure"):
        return figure["measure"]
    label = figure.get("label", "")
    if label in LABELS_BEFORE_IDS:
        return LABELS_BEFORE_IDS[label]
    if m := _SECTION.fullmatch(label):
        return f"received_s{m.group(1)}"
    if _DEADLINES.fullmatch(label):
        return "deadlines_after"
    return None


def by_measure(figures: list[dict]) -> dict[str, dict]:
    """The sealed figures by measure id (figures of no known measure left out)."""
    return {m: f for f in figures if (m := measure_of(f)) is not None}
