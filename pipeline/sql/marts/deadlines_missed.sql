-- deadlines_missed: one row per finding of a statutory time limit that ran out with its step
-- not taken, filed by pound and by the month the limit ran out (event_on), for the analysts'
-- explore notebook. The rules counted are those whose check turns on a time limit of the Act:
--   S15-REPORT-MISSING, S15-REPORT-LATE   s.15(1) report of unclaimed cattle to the police
--   S15-SALE-OVERDUE                      s.15(3) sale after the notice's period
--   S15-SALE-LATE                         s.15(3) sale held after its grace ran out (R20)
--   HEADS-LEFT-IN-POUND                   s.15(3) heads left unsold after the case was acted on (R26)
--   S16-FOLLOW-UP-MISSING                 s.16(2) declaration and security after the complaint window
SELECT f.month, f.district, f.pound_id, f.rule_id, f.section, f.case_id, f.subject_id, f.event_on,
       CASE f.rule_id WHEN 'S15-REPORT-MISSING' THEN 'report to the police never made'
                      WHEN 'S15-REPORT-LATE' THEN 'report to the police made late'
                      WHEN 'S15-SALE-OVERDUE' THEN 'auction overdue'
                      WHEN 'S15-SALE-LATE' THEN 'auction held late'
                      WHEN 'HEADS-LEFT-IN-POUND' THEN 'heads left in the pound'
                      WHEN 'S16-FOLLOW-UP-MISSING' THEN 'no declaration or security after a protest'
       END AS deadline,
       f.detail
FROM findings f
WHERE f.rule_id IN ('S15-REPORT-MISSING', 'S15-REPORT-LATE', 'S15-SALE-OVERDUE', 'S15-SALE-LATE', 'HEADS-LEFT-IN-POUND',
                    'S16-FOLLOW-UP-MISSING')
ORDER BY f.month, f.pound_id, f.rule_id, f.subject_id
