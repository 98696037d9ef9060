-- findings: the table of the rules layer. The build stacks the rows every rule of sql/rules/
-- returns, with the rule's id, section and severity from its header, as `rule_rows`
-- (pipeline/build/rules.py), as the first CTE of this query. Here each finding is filed under
-- a district (its pound's; for a s.14 order, that of its taluk's pounds; else its local
-- authority's) and the month of its event, and given the District Magistrate's latest decision
-- on it (finding_reviews; the latest by reviewed_on, a later row of the same day winning).
--   severity_rank   high 1, medium 2, low 3: the order of every list of findings
--   review_status   open (no decision, or the latest is `reopened`), or the decision in force
--   days_open       of an open finding: days from its event to the as-of date
--   open_age        of an open finding: the band of days_open the monthly review counts in
--   review_rank     0 open, 1 decided: open findings are listed first
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
    SELECT * FROM stg_finding_reviews
    QUALIFY row_number() OVER (PARTITION BY rule_id, subject_id ORDER BY reviewed_on DESC, source DESC) = 1
)
SELECT r.*,
       CASE WHEN l.decision IS NULL OR l.decision = 'reopened' THEN 'open' ELSE l.decision END AS review_status,
       l.reviewed_on, l.reviewed_by, l.note AS review_note,
       CASE WHEN l.decision IS NULL OR l.decision = 'reopened' THEN CAST(as_of() - r.event_on AS BIGINT) END AS days_open,
       CASE WHEN l.decision IS NOT NULL AND l.decision <> 'reopened' THEN NULL
            WHEN as_of() - r.event_on > 90 THEN 'open more than 90 days'
            WHEN as_of() - r.event_on > 60 THEN 'open 61-90 days'
            WHEN as_of() - r.event_on > 30 THEN 'open 31-60 days'
            ELSE 'open up to 30 days' END AS open_age,
       CASE WHEN l.decision IS NOT NULL AND l.decision <> 'reopened' THEN 1 ELSE 0 END AS review_rank
FROM raised r LEFT JOIN latest l ON l.rule_id = r.rule_id AND l.subject_id = r.subject_id
ORDER BY r.severity_rank, r.rule_id, r.event_on, r.subject_id
