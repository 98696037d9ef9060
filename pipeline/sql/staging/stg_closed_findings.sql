-- stg_closed_findings: the findings of the month a close sealed, with their review status then.
SELECT close_id, rule_id, subject_id, pound_id, review_status FROM closed_findings
