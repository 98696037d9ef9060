-- deadline_kinds: the deadlines the monthly list (deadlines) looks ahead to, one row each, with
-- the day each falls on as the readings in force set it (w = window_days: claim_days, or
-- claim_days_short for the short classes, a day less when count_first_day; and the graces),
-- so that the page explaining the list says what the list was made with.
WITH p AS (
    SELECT window_days(false) AS w, window_days(true) AS ws,
           array_to_string(getvariable('short_classes'), ', ') AS short_classes,
           getvariable('report_grace') AS report_grace, getvariable('sale_grace') AS sale_grace,
           getvariable('complaint_window') AS complaint_window
)
SELECT k.rank, k.deadline, k.section, k.day
FROM p, LATERAL (
    SELECT 1 AS rank, 'claim window ends' AS deadline, '15(1)' AS section,
           'impounded on D: D + ' || w || ' (D + ' || ws || ' for ' || short_classes || ')' AS day
    UNION ALL
    SELECT 2, 'report to the police due', '15(1)',
           'D + ' || (w + 1 + report_grace) || ' (D + ' || (ws + 1 + report_grace) || ' for ' || short_classes || ')'
    UNION ALL
    SELECT 3, 'auction allowed from', '15(3)',
           'notice on N: N + ' || (w + 1) || ' (N + ' || (ws + 1) || ' for ' || short_classes || ')'
    UNION ALL
    SELECT 4, 'auction overdue after', '15(3)',
           'N + ' || (w + 1 + sale_grace) || ' (N + ' || (ws + 1 + sale_grace) || ' for ' || short_classes || ')'
    UNION ALL
    SELECT 5, 'complaint window ends', '16(2)', 'delivered under protest on R: R + ' || complaint_window
) k
ORDER BY k.rank
