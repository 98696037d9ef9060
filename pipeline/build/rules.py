"""The rules: one SQL file per rule id, stacked into the table `findings`.

Each file `sql/rules/<RULE-ID>.sql` starts with a header (rule, section, severity,
subject, checks, reading) and returns the offending rows in the columns subject_kind,
subject_id, case_id, pound_id, local_authority_id, event_on and detail. The runner
adds the rule's id, section and severity (the header's, unless the rule returns a column
`severity` of its own: a rule whose finding is graver in some cases, whose header names the
gravest; and likewise a column `section`, for a rule whose header lists more than one) and stacks every rule's rows as the first CTE
(`rule_rows`) of `sql/findings.sql`, which files each finding under a district and the
month of its event and gives each the District Magistrate's latest decision on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.build.models import reads
from pipeline.core.paths import SQL_DIR

FINDING_COLUMNS = ("rule_id", "section", "severity", "subject_kind", "subject_id", "case_id",
                   "pound_id", "local_authority_id", "event_on", "detail")
# The query that files the rules' rows (as its CTE rule_rows) and gives each the DM's decision.
FINDINGS_FILE = SQL_DIR / "findings.sql"
RULE_ROWS = "rule_rows"


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


def _filing() -> str:
    return FINDINGS_FILE.read_text(encoding="utf-8")


def rules_read(rules: list[Rule]) -> frozenset[str]:
    """Every table the findings table reads: the rules' reads and the filing query's."""
    out: set[str] = set(reads(_filing())) - {RULE_ROWS}
    for r in rules:
        out |= reads(r.sql)
    return frozenset(out)


def _rule_rows(rules: list[Rule]) -> str:
    """Every rule's rows in the columns of a finding, the rule's id, section and severity added."""
    if not rules:
        return "SELECT " + ", ".join(f"CAST(NULL AS {'DATE' if c == 'event_on' else 'VARCHAR'}) AS {c}"
                                     for c in FINDING_COLUMNS) + " WHERE false"
    parts = []
    for r in rules:
        body = r.sql.strip().rstrip(";")
        severity = "severity" if _OWN_SEVERITY.search(body) else f"'{r.severity}'"
        section = "section" if _OWN_SECTION.search(body) else f"'{r.section}'"
        parts.append(
            f"SELECT '{r.rule_id}' AS rule_id, {section} AS section, {severity} AS severity, "
            f"subject_kind, CAST(subject_id AS VARCHAR) AS subject_id, CAST(case_id AS VARCHAR) AS case_id, "
            f"CAST(pound_id AS VARCHAR) AS pound_id, CAST(local_authority_id AS VARCHAR) AS local_authority_id, "
            f"CAST(event_on AS DATE) AS event_on, detail FROM (\n{body}\n)")
    return "\nUNION ALL\n".join(parts)


_FIRST_WITH = re.compile(r"^WITH\s+", re.M)
_OWN_SEVERITY = re.compile(r"\bAS severity\b", re.I)
_OWN_SECTION = re.compile(r"\bAS section\b", re.I)


def findings_sql(rules: list[Rule]) -> str:
    """The SELECT of the findings table: sql/findings.sql, with every rule's rows as its first CTE."""
    sql, n = _FIRST_WITH.subn(lambda _: f"WITH {RULE_ROWS} AS (\n{_rule_rows(rules)}\n),\n", _filing(), count=1)
    if n != 1:
        raise RuntimeError(f"{FINDINGS_FILE.name} must be one query starting WITH, reading {RULE_ROWS}")
    return sql
