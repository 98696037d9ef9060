-- rule: REL-OVERCHARGED
-- section: 12(1)
-- severity: high
-- subject: release
-- checks: A release on payment (basis s12_payment) where the fines paid or the feeding charges paid are
--   more than what was due on the release day. High when the excess, fines and charges together, is
--   Rs 5,000 or more, else medium.
-- reading: s.12(1) delivers the cattle "on payment of the fines fixed and the charges payable": nothing
--   more is owed, so the excess is the owner's, and fund_movements sends it back to him (12(1)), not to
--   the local fund or the pound-keeper (int_releases.fines_over_r, charges_over_r). Dues as for
--   REL-UNPAID; cases with no rate are left to RATE-MISSING, a release dated before the impounding to
--   REL-UNAUTHORISED. Other bases are not judged here: a delivery under protest pays by its deposit
--   (REL-PROTEST-SHORT), a court's release by its order, and the s.17 remainder's dues by the sale.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       CASE WHEN fines_over_r + charges_over_r >= 500000 THEN 'high' ELSE 'medium' END AS severity,
       'Release ' || release_id || ' of ' || head_count || ' ' || animal_class || ' (case ' || case_id
       || ') on ' || day_text(released_on) || ' collected ' || rs(fines_paid) || ' fines against ' || rs(fine_due_r)
       || ' due and ' || rs(charges_paid) || ' feeding charges against ' || rs(feeding_due_r) || ' due under s.12(1): '
       || rs(fines_over_r + charges_over_r) || ' more than due, owed back to the owner.' AS detail
FROM int_releases
WHERE fines_over_r > 0 OR charges_over_r > 0
