-- review_log: every decision the District Magistrate recorded on a finding (finding_reviews, as of),
-- and whether the finding is still raised: a review whose finding is no longer raised (after a
-- correction, say) stays visible. Exported as finding_reviews.csv.
SELECT r.rule_id, r.subject_id, r.reviewed_on, r.reviewed_by, r.decision, r.note,
       f.rule_id IS NOT NULL AS finding_raised,
       -- beyond the export columns
       f.event_on, f.pound_id, f.district, f.month AS finding_month, r.source
FROM stg_finding_reviews r
LEFT JOIN (SELECT DISTINCT rule_id, subject_id, event_on, pound_id, district, month FROM findings) f
       ON f.rule_id = r.rule_id AND f.subject_id = r.subject_id
ORDER BY r.reviewed_on, r.rule_id, r.subject_id
