-- rule: S15-SALE-LATE
-- section: 15(3)
-- severity: high
-- subject: case
-- checks: An accepted s.15 attempt (an auction, or a disposal after a rejected bid) of a case no owner came
--   for, held after the day the sale fell due: sale_allowed_on + sale_grace, the line S15-SALE-OVERDUE
--   uses. High when the overdue feeding of the case (the feeding of the heads sold late for the days after
--   that day) is Rs 5,000 or more, else medium. One finding per case, on its first late attempt's day.
-- reading: s.15(3) says the unclaimed cattle "shall be sold by public auction"; sale_grace allows for
--   fixing the auction. Feeding run up after that day is the officer's delay: the sale's waterfall takes
--   it after the fines (R20 of the fourth reading), so the local fund's fines are paid first, and the memo
--   goes to the officer the s.15(1) report was made to (R13), as for S15-SALE-OVERDUE.
WITH late AS (
    SELECT case_id, pound_id, local_authority_id, sale_id, sale_on, sale_due_on, days_late,
           sum(due_feeding_overdue) OVER (PARTITION BY case_id) AS overdue_feeding,
           count(*) OVER (PARTITION BY case_id) AS late_attempts,
           row_number() OVER (PARTITION BY case_id ORDER BY sale_on, sale_id) AS pick
    FROM sale_attempt_accounts
    WHERE days_late > 0
)
SELECT 'case' AS subject_kind, l.case_id AS subject_id, l.case_id, l.pound_id, l.local_authority_id,
       l.sale_on AS event_on,
       CASE WHEN coalesce(l.overdue_feeding, 0) >= 500000 THEN 'high' ELSE 'medium' END AS severity,
       'Unclaimed ' || c.animal_class || ' of case ' || l.case_id || ' sold (' || l.sale_id || ') on ' || day_text(l.sale_on)
       || ', ' || l.days_late || ' days after the sale fell due on ' || day_text(l.sale_due_on) || ' (s.15(3))'
       || CASE WHEN l.late_attempts > 1 THEN ', with ' || (l.late_attempts - 1) || ' later attempt(s) late too' ELSE '' END
       || ': ' || CASE WHEN l.overdue_feeding IS NULL THEN 'overdue feeding not known (no rate)'
                       ELSE rs(l.overdue_feeding) || ' of overdue feeding' END
       || ', charged to the sale after the fines.' AS detail
FROM late l JOIN int_cases c USING (case_id)
WHERE l.pick = 1
