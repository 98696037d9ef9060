-- review_log: every decision the District Magistrate recorded on a finding (finding_reviews), and
-- how it stands now: a decision set aside stays in the history, with why. Exported as
-- finding_reviews.csv.
--   finding_raised  whether the accounts raise the finding it names (after a correction, say, not)
--   standing        in force: the latest applied decision on a finding raised, made on its figures
--                   superseded: a later decision on the same finding is the one applied
--                   made on other figures: recorded with a detail whose figures differ from the
--                     finding's now (a correction moved it); the finding is open again (reopened)
--                   names no finding: no finding of that rule and subject is raised
--                   dated after its load day: it could not have been made yet (int_finding_reviews)
--   applied         in force: the decision each finding's review_status is worked from
WITH f AS (
    SELECT DISTINCT rule_id, subject_id, event_on, pound_id, district, month, detail FROM findings
),
judged AS (
    SELECT r.*, f.rule_id IS NOT NULL AS finding_raised, f.event_on, f.pound_id, f.district, f.month AS finding_month,
           CASE WHEN r.future THEN 'dated after its load day'
                WHEN f.rule_id IS NULL THEN 'names no finding'
                WHEN other_figures(r.finding_detail, f.detail, r.corrected_after) THEN 'made on other figures'
                WHEN r.newest > 1 THEN 'superseded'
                ELSE 'in force' END AS standing
    FROM int_finding_reviews r
    LEFT JOIN f ON f.rule_id = r.rule_id AND f.subject_id = r.subject_id
)
SELECT rule_id, subject_id, reviewed_on, reviewed_by, decision, note, finding_raised, standing,
       -- beyond the export columns
       standing = 'in force' AS applied, finding_detail,
       event_on, pound_id, district, finding_month, source
FROM judged
ORDER BY reviewed_on, rule_id, subject_id
