-- findings: the table of the rules layer. The build stacks the rows every rule of sql/rules/
-- returns, with the rule's id, section and severity from its header, as `rule_rows`
-- (pipeline/build/rules.py), as the first CTE of this query. Here each finding is filed under
-- a district (its pound's; for a s.14 order, that of its taluk's pounds; else its local
-- authority's) and the month of its event, and given the District Magistrate's latest decision
-- on it (finding_reviews; the latest by reviewed_on, a later row of the same day winning; whatever
-- its date against as_of, for the meeting on a month sits after it; one dated after the day it
-- was loaded is set aside: int_finding_reviews.future).
--   review_status   open (no decision, or the latest is `reopened`), reopened (the latest decision
--                   was made on other figures, macros.sql other_figures: a correction moved the
--                   finding, which waits for a fresh decision), or the decision in force
--   days_open       of an open or reopened finding: days from its event to the as-of date
--   open_age        of an open or reopened finding: the band of days_open the monthly review counts in
--   review_rank     0 open or reopened, 1 decided: open findings are listed first
WITH raised AS (
    SELECT f.rule_id, f.section, f.severity, f.subject_kind, f.subject_id, f.case_id, f.pound_id,
           f.local_authority_id, f.event_on, f.detail,
           coalesce(p.district, o.district, la.district) AS district,
           month_of(f.event_on) AS month,
           CASE f.severity WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END AS severity_rank
    FROM rule_rows f
    LEFT JOIN stg_pounds p ON p.pound_id = f.pound_id
    LEFT JOIN int_removal_orders o ON f.subject_kind = 'order' AND o.order_id = f.subject_id
    LEFT JOIN stg_local_authorities la ON la.local_authority_id = f.local_authority_id
),
latest AS (
    SELECT * FROM int_finding_reviews WHERE NOT future AND newest = 1
),
judged AS (
    SELECT r.*,
           CASE WHEN l.decision IS NULL OR l.decision = 'reopened' THEN 'open'
                WHEN other_figures(l.finding_detail, r.detail, l.corrected_after) THEN 'reopened'
                ELSE l.decision END AS review_status,
           l.reviewed_on, l.reviewed_by, l.note AS review_note
    FROM raised r LEFT JOIN latest l ON l.rule_id = r.rule_id AND l.subject_id = r.subject_id
)
SELECT *,
       CASE WHEN review_status IN ('open', 'reopened') THEN CAST(as_of() - event_on AS BIGINT) END AS days_open,
       CASE WHEN review_status NOT IN ('open', 'reopened') THEN NULL
            WHEN as_of() - event_on > 90 THEN 'open more than 90 days'
            WHEN as_of() - event_on > 60 THEN 'open 61-90 days'
            WHEN as_of() - event_on > 30 THEN 'open 31-60 days'
            ELSE 'open up to 30 days' END AS open_age,
       CASE WHEN review_status IN ('open', 'reopened') THEN 0 ELSE 1 END AS review_rank
FROM judged
ORDER BY severity_rank, rule_id, event_on, subject_id
