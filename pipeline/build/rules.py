"""The rules: one SQL file per rule id, stacked into the table `findings`.

Each file `sql/rules/<RULE-ID>.sql` starts with a header (rule, section, severity,
subject, checks, reading) and returns the offending rows in the columns subject_kind,
subject_id, case_id, pound_id, local_authority_id, event_on and detail. The runner
adds the rule's id, section and severity, and files each finding under a district
(its pound's; for a s.14 order, that of its taluk's pounds; else its local
authority's) and the month of its event, and gives each the District Magistrate's
latest decision on it (review_status: open, or the decision).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.build.models import tables_read
from pipeline.core.paths import SQL_DIR

FINDING_COLUMNS = ("rule_id", "section", "severity", "subject_kind", "subject_id", "case_id",
                   "pound_id", "local_authority_id", "event_on", "detail")
# What the findings table reads besides the rules' own reads (the district of a finding).
FILING_READS = frozenset({"stg_pounds", "int_removal_orders", "stg_local_authorities", "stg_finding_reviews"})


@dataclass(frozen=True)
class Rule:
    """A rule file: its id and the header fields that describe it."""

    rule_id: str
    path: Path
    section: str
    severity: str
    subject: str
    checks: str
    reading: str
    sql: str


_HEADER = re.compile(r"^--\s*(rule|section|severity|subject|checks|reading):\s*(.*)$")


def load_rules() -> list[Rule]:
    rules = []
    for path in sorted((SQL_DIR / "rules").glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        fields: dict[str, str] = {}
        last = None
        for line in text.splitlines():
            m = _HEADER.match(line)
            if m:
                last = m.group(1)
                fields[last] = m.group(2).strip()
            elif last and line.startswith("--   "):
                fields[last] += " " + line[5:].strip()
            elif not line.startswith("--"):
                break
            else:
                last = None
        missing = {"rule", "section", "severity", "subject", "checks", "reading"} - fields.keys()
        if missing:
            raise RuntimeError(f"{path.name}: header lacks {', '.join(sorted(missing))}")
        if fields["rule"] != path.stem:
            raise RuntimeError(f"{path.name}: header names rule {fields['rule']}")
        rules.append(Rule(fields["rule"], path, fields["section"], fields["severity"], fields["subject"],
                          fields["checks"], fields["reading"], text))
    return rules


def rules_read(rules: list[Rule]) -> frozenset[str]:
    """Every table the findings table reads: the rules' reads and the district look-ups."""
    out: set[str] = set(FILING_READS)
    for r in rules:
        out |= tables_read(r.sql)
    return frozenset(out)


def findings_sql(rules: list[Rule]) -> str:
    """The SELECT of the findings table: every rule's rows, filed by district and month."""
    if not rules:
        return ("SELECT " + ", ".join(f"CAST(NULL AS {'DATE' if c == 'event_on' else 'VARCHAR'}) AS {c}"
                                      for c in FINDING_COLUMNS)
                + ", CAST(NULL AS VARCHAR) AS district, CAST(NULL AS VARCHAR) AS month, CAST(NULL AS INTEGER) AS severity_rank"
                + ", CAST(NULL AS VARCHAR) AS review_status, CAST(NULL AS DATE) AS reviewed_on,"
                + " CAST(NULL AS VARCHAR) AS reviewed_by, CAST(NULL AS VARCHAR) AS review_note,"
                + " CAST(NULL AS BIGINT) AS days_open, CAST(NULL AS VARCHAR) AS open_age, 0 AS review_rank WHERE false")
    parts = []
    for r in rules:
        body = r.sql.strip().rstrip(";")
        parts.append(
            f"SELECT '{r.rule_id}' AS rule_id, '{r.section}' AS section, '{r.severity}' AS severity, "
            f"subject_kind, CAST(subject_id AS VARCHAR) AS subject_id, CAST(case_id AS VARCHAR) AS case_id, "
            f"CAST(pound_id AS VARCHAR) AS pound_id, CAST(local_authority_id AS VARCHAR) AS local_authority_id, "
            f"CAST(event_on AS DATE) AS event_on, detail FROM (\n{body}\n)")
    cols = ", ".join(f"f.{c}" for c in FINDING_COLUMNS)
    return (f"WITH raised AS (\nSELECT {cols}, coalesce(p.district, o.district, la.district) AS district, "
            "month_of(f.event_on) AS month, "
            "CASE f.severity WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END AS severity_rank FROM (\n"
            + "\nUNION ALL\n".join(parts) + "\n) f\n"
            "LEFT JOIN stg_pounds p ON p.pound_id = f.pound_id\n"
            "LEFT JOIN int_removal_orders o ON f.subject_kind = 'order' AND o.order_id = f.subject_id\n"
            "LEFT JOIN stg_local_authorities la ON la.local_authority_id = f.local_authority_id\n"
            "),\n" + REVIEWED)


# The District Magistrate's latest decision on each finding (finding_reviews): a finding is open
# while it has none, or while the latest is `reopened`; days_open counts from its event to as_of.
REVIEWED = """latest AS (
    SELECT * FROM stg_finding_reviews
    QUALIFY row_number() OVER (PARTITION BY rule_id, subject_id ORDER BY reviewed_on DESC, source DESC) = 1
)
SELECT r.*,
       CASE WHEN l.decision IS NULL OR l.decision = 'reopened' THEN 'open' ELSE l.decision END AS review_status,
       l.reviewed_on, l.reviewed_by, l.note AS review_note,
       CASE WHEN l.decision IS NULL OR l.decision = 'reopened' THEN CAST(as_of() - r.event_on AS BIGINT) END AS days_open,
       -- how long an open finding has waited for a decision, in the bands the monthly review shows
       CASE WHEN l.decision IS NOT NULL AND l.decision <> 'reopened' THEN NULL
            WHEN as_of() - r.event_on > 90 THEN 'open more than 90 days'
            WHEN as_of() - r.event_on > 60 THEN 'open 61-90 days'
            WHEN as_of() - r.event_on > 30 THEN 'open 31-60 days'
            ELSE 'open up to 30 days' END AS open_age,
       CASE WHEN l.decision IS NOT NULL AND l.decision <> 'reopened' THEN 1 ELSE 0 END AS review_rank
FROM raised r LEFT JOIN latest l ON l.rule_id = r.rule_id AND l.subject_id = r.subject_id
ORDER BY r.severity_rank, r.rule_id, r.event_on, r.subject_id"""
