-- rule: REL-UNPAID
-- section: 12(1)
-- severity: high
-- subject: release
-- checks: A release on payment (basis s12_payment) where the fines paid or the feeding charges paid
--   fall short of what was due on the release day; or a delivery of the s.17 remainder after the sale
--   day (basis s17_remainder) whose charges paid fall short of the feeding of its heads from the day
--   after the sale to the release.
-- reading: Dues of a release of h heads on day R: h x fine per head, and h x feeding per head per day
--   x (R - D + 1) days (parameter feeding_days). The s.17 sale paid the remainder's fines and its feeding
--   to the sale day S; the heads kept after it are fed at the owner's charge until delivered, h x feeding
--   per day x (R - S) days, payable at the release (R27 of the fourth reading: s.17(3), s.12(1)); what it
--   did not collect is unrecovered. Cases with no rate are left to RATE-MISSING.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' of ' || head_count || ' ' || animal_class || ' (case ' || case_id
       || ') on ' || day_text(released_on) || ' collected ' || rs(fines_paid) || ' of ' || rs(fine_due_r) || ' fines and '
       || rs(charges_paid) || ' of ' || rs(feeding_due_r) || ' feeding charges due under s.12(1): short by '
       || rs(greatest(fine_due_r - fines_paid, 0) + greatest(feeding_due_r - charges_paid, 0)) || '.' AS detail
FROM int_releases
WHERE basis = 's12_payment' AND rate_found
  AND (fines_paid < fine_due_r OR charges_paid < feeding_due_r)
UNION ALL
SELECT 'release', release_id, case_id, pound_id, local_authority_id, released_on,
       'Release ' || release_id || ' of the ' || head_count || ' ' || animal_class || ' remaining after the s.17 sale of case '
       || case_id || ' on ' || day_text(remainder_sold_on) || ', delivered on ' || day_text(released_on) || ', collected '
       || rs(charges_paid) || ' of ' || rs(after_sale_feeding_r) || ' feeding charges for the '
       || CAST(released_on - remainder_sold_on AS BIGINT) || ' days after the sale (s.17(3), s.12(1)): short by '
       || rs(after_sale_unpaid_r) || ', unrecovered.'
FROM int_releases
WHERE basis = 's17_remainder' AND rate_found AND after_sale_unpaid_r > 0
