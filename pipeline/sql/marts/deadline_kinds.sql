-- deadline_kinds: the deadlines the monthly list (deadlines) looks ahead to, one row each, with
-- the day each falls on as the readings in force set it (w = window_days: claim_days, or
-- claim_days_short for the short classes, a day less when count_first_day; and the graces),
-- so that the page explaining the list says what the list was made with. Each deadline is a
-- number of days after its start day (D, N or R); the s.15 ones also for the short classes, counted
-- by the same s15_* macros as the timeline's days (a start day of 0 gives the number of days).
WITH p AS (
    SELECT window_days(false) AS w, window_days(true) AS ws,
           'the short classes: ' || array_to_string(getvariable('short_classes'), ', ') AS short_classes,
           len(getvariable('short_classes')) > 0 AS any_short,
           getvariable('report_grace') AS report_grace, getvariable('sale_grace') AS sale_grace,
           getvariable('complaint_window') AS complaint_window
),
k AS (
    SELECT 1 AS rank, 'claim window ends' AS deadline, '15(1)' AS section, 'impounded on day D: ' AS start,
           'D' AS d, s15_claim_end(0, w) AS days, s15_claim_end(0, ws) AS days_short,
           'the owner may claim until then; unclaimed, the case must then be reported' AS note
    FROM p
    UNION ALL
    SELECT 2, 'report to the police due', '15(1)', '', 'D', s15_report_due(0, w) + report_grace, s15_report_due(0, ws) + report_grace,
           CASE WHEN report_grace > 0 THEN 'the day after the claim window, with ' || report_grace
                || ' days of grace (report_grace, a reading: the Act gives none)'
                ELSE 'the day after the claim window' END
    FROM p
    UNION ALL
    SELECT 3, 'auction allowed from', '15(3)', 'notice given on day N: ', 'N', s15_sale_allowed(0, w), s15_sale_allowed(0, ws),
           'no sale before the notice has run'
    FROM p
    UNION ALL
    SELECT 4, 'auction overdue after', '15(3)', '', 'N', s15_sale_allowed(0, w) + sale_grace, s15_sale_allowed(0, ws) + sale_grace,
           'the Act sets no last day for the sale; ' || sale_grace
           || ' days after it is allowed (sale_grace) is a reading of this office'
    FROM p
    UNION ALL
    SELECT 5, 'complaint window ends', '16(2)', 'delivered under protest on day R: ', 'R', complaint_window, NULL,
           'with no complaint by then, the owner must make the declaration and deposit the security of s.13, '
           || 'and the deposit is taken as the fines and charges (unless a complaint, even a late one, is held illegal)'
    FROM p
)
SELECT k.rank, k.deadline, k.section,
       k.start || k.d || ' + ' || k.days || ' days'
       || CASE WHEN p.any_short AND k.days_short IS NOT NULL
               THEN ' (' || k.d || ' + ' || k.days_short || ' for ' || p.short_classes || ')' ELSE '' END AS day,
       k.note
FROM k, p
ORDER BY k.rank
