-- int_case_timeline: one row per case with the dates the s.15 path turns on.
-- w = 7 days, 3 for asses and sheep (parameters claim_days, claim_days_short; macro claim_window). The days
-- are the s15_* macros of macros.sql, the one place their arithmetic is written. The owner may
-- claim on D+1 .. D+w; the report to the police is due on D+w+1 (s.15(1));
-- after the notice N the cattle may be sold from N+w+1 (s.15(3)): sale_allowed_on.
-- Each day with its grace (params.py) stands beside its base day, the one definition of it
-- (the rules, deadlines and the papers read these columns; none adds a grace itself):
--   report_grace_ends_on  report_due_on + report_grace: a report after it is late;
--   notice_grace_ends_on  reported_on + notice_grace: the notice and proclamation are due by it;
--   sale_grace_ends_on    sale_allowed_on + sale_grace: an unclaimed case unsold after it is overdue.
-- The papers' notice is dated the notice recorded, else the report's day, else the day the accounts
-- are drawn up to (a notice not yet given is given with the report): notice_from. The owner's w days
-- run from window_from, the latest of the report, the notice and the proclamations recorded (R24 of
-- the fourth reading: s.15(2) has the notice given "on receipt of a report", so a notice dated before
-- the report gives him no earlier start; R25: the notice is displayed and proclaimed in the village
-- or area and at the market place, and he is told by the last of them), and the cattle may be sold
-- from sale_allowed_from = window_from + w + 1;
-- sale_allowed_on is that day when the notice is recorded, blank while it is not.
-- owner_appeared: the case has an s17_refusal attempt (the owner came and
-- refused to pay), or it is a re-seizure under s.16(2) (the owner came and took the cattle
-- under protest; they are seized again "for the purposes of section 17": R4): either takes
-- it out of every S15 rule.
WITH leaves AS (
    SELECT case_id, min(left_on) AS first_left_on FROM int_leaves GROUP BY case_id
)
SELECT
    c.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district, c.animal_class, c.head_count,
    c.impounded_on, c.w,
    s15_claim_end(c.impounded_on, c.w) AS claim_ends_on,
    s15_report_due(c.impounded_on, c.w) AS report_due_on,
    report_due_on + getvariable('report_grace') AS report_grace_ends_on,
    l.first_left_on,
    coalesce(s.s17_attempt, false) OR c.reseizure_of IS NOT NULL AS owner_appeared,
    s.first_s15_attempt_on,
    p.reported_on, p.reported_to, p.notice_on, p.proclamation_on, p.market_proclamation_on,
    p.reported_on + getvariable('notice_grace') AS notice_grace_ends_on,
    coalesce(p.notice_on, p.reported_on, as_of()) AS notice_from,
    coalesce(greatest(p.notice_on, p.reported_on, p.proclamation_on, p.market_proclamation_on), as_of()) AS window_from,
    s15_sale_allowed(window_from, c.w) AS sale_allowed_from,
    s15_notice_end(window_from, c.w) AS notice_claim_ends_on,
    CASE WHEN p.notice_on IS NOT NULL THEN sale_allowed_from END AS sale_allowed_on,
    sale_allowed_on + getvariable('sale_grace') AS sale_grace_ends_on,
    p.case_id IS NOT NULL AS has_report_row
FROM int_cases c
LEFT JOIN leaves l USING (case_id)
LEFT JOIN int_case_sales s USING (case_id)
LEFT JOIN stg_police_reports p USING (case_id)
