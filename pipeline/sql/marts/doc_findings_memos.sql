-- doc_findings_memos: one row per open finding at a pound (no decision yet, or reopened), filed
-- by the month of its event: the memo the DM's office sends the pound-keeper for explanation.
-- Read by `pound documents` (findings_memo_<pound>_<month>); one memo per pound and month.
-- Findings with no pound (removal orders, ledgers) are not a pound-keeper's to explain.
SELECT
    f.pound_id, f.month, p.pound_name, p.taluk, p.district, k.name AS pound_keeper_name,
    f.rule_id, f.section, f.severity, f.severity_rank, f.subject_kind, f.subject_id, f.case_id,
    f.event_on, f.detail, f.days_open,
    f.event_on AS doc_on
FROM findings f
JOIN stg_pounds p USING (pound_id)
LEFT JOIN stg_officials k ON k.person_id = p.pound_keeper_id
WHERE f.review_status = 'open'
ORDER BY f.pound_id, f.month, f.severity_rank, f.rule_id, f.event_on, f.subject_id
