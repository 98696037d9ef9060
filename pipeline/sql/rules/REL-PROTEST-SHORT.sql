-- rule: REL-PROTEST-SHORT
-- section: 16(1)
-- severity: high
-- subject: release
-- checks: A delivery under protest (basis s16_protest) where the deposit is less than the fines and
--   feeding charges due on the day of delivery.
-- reading: Dues as for REL-UNPAID: h x fine + h x feeding per day x days held to the delivery day.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' (case ' || case_id || ') under protest on ' || day_text(released_on) || ' took a deposit of '
       || rs(protest_deposit) || ' against ' || rs(fine_due_r + feeding_due_r) || ' of fines and charges due (s.16(1)): short by '
       || rs(fine_due_r + feeding_due_r - protest_deposit) || '.' AS detail
FROM int_releases
WHERE basis = 's16_protest' AND rate_found AND protest_deposit < fine_due_r + feeding_due_r
