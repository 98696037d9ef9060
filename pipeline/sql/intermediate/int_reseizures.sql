-- int_reseizures: one row per re-seizure under s.16(2) (a case whose reseizure_of names the case
-- delivered under protest): what the protest deposit left unpaid of the first case's dues, which
-- the re-seizure carries (R11 of the third reading). s.17(1) has the owner failing "to deposit the
-- said fines, expenses and amount of security" in the s.16(2) case, so what the deposit did not
-- cover is due on the re-seizure and its sale deducts it (s.17(2)). The deposit pays the fines
-- first, then the charges (as fund_movements splits it, R6):
--   carried_fines    the first case's fines of its deliveries under protest before the re-seizure,
--                    less what their deposits covered of them (0 when they covered them)
--   carried_feeding  likewise of their feeding charges
SELECT r.case_id, r.reseizure_of,
       coalesce(sum(p.fine_due_r - least(coalesce(p.protest_deposit, 0), p.fine_due_r)), 0) AS carried_fines,
       coalesce(sum(p.feeding_due_r - least(greatest(coalesce(p.protest_deposit, 0) - p.fine_due_r, 0), p.feeding_due_r)), 0)
           AS carried_feeding
FROM int_cases r
LEFT JOIN int_protests p
  ON p.case_id = r.reseizure_of AND p.basis = 's16_protest' AND p.released_on < r.impounded_on AND p.rate_found
WHERE r.reseizure_of IS NOT NULL
GROUP BY r.case_id, r.reseizure_of
