-- rule: REL-UNPAID
-- section: 12(1)
-- severity: high
-- subject: release
-- checks: A release on payment (basis s12_payment) where the fines paid or the feeding charges paid
--   fall short of what was due on the release day.
-- reading: Dues of a release of h heads on day R: h x fine per head, and h x feeding per head per day
--   x (R - D + 1) days (parameter feeding_days). Cases with no rate are left to RATE-MISSING.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' of ' || head_count || ' ' || animal_class || ' (case ' || case_id
       || ') on ' || day_text(released_on) || ' collected ' || rs(fines_paid) || ' of ' || rs(fine_due_r) || ' fines and '
       || rs(charges_paid) || ' of ' || rs(feeding_due_r) || ' feeding charges due under s.12(1): short by '
       || rs(greatest(fine_due_r - fines_paid, 0) + greatest(feeding_due_r - charges_paid, 0)) || '.' AS detail
FROM int_releases
WHERE basis = 's12_payment' AND rate_found
  AND (fines_paid < fine_due_r OR charges_paid < feeding_due_r)
