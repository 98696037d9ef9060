-- rule: REL-NO-SECURITY
-- section: 13(1), 13(3)
-- severity: high
-- subject: release
-- checks: A release on payment where s.13 is notified on the release day, with no fresh security:
--   the deposit named by security_deposit_id must be for this case, made on or before the release
--   day, and at least h x security per head in force that day.
-- reading: "As above" in the catalogue is read as basis s12_payment with s.13 notified on the release
--   day (whether or not a declaration was made). A deposit made for another case is not fresh (s.13(3)).
--   Where no rate gives the amount due, any deposit for the case made by the release day is accepted.
SELECT 'release' AS subject_kind, r.release_id AS subject_id, r.case_id, r.pound_id, r.local_authority_id,
       r.released_on AS event_on,
       'Release ' || r.release_id || ' of ' || r.head_count || ' ' || r.animal_class || ' (case ' || r.case_id || ') on '
       || day_text(r.released_on) || ' needed fresh security of '
       || CASE WHEN r.security_due_r IS NULL THEN 'an unknown amount (no rate)' ELSE rs(r.security_due_r) END
       || ' under s.13; '
       || CASE WHEN r.security_deposit_id IS NULL THEN 'no deposit is named.'
               WHEN d.deposit_id IS NULL THEN 'deposit ' || r.security_deposit_id || ' is not in the deposits register.'
               WHEN d.case_id <> r.case_id THEN 'deposit ' || r.security_deposit_id || ' was made for case ' || d.case_id || ', not this one.'
               WHEN d.deposited_on > r.released_on THEN 'deposit ' || r.security_deposit_id || ' was made only on ' || day_text(d.deposited_on) || '.'
               ELSE 'deposit ' || r.security_deposit_id || ' is only ' || rs(d.amount) || '.' END AS detail
FROM int_releases r
LEFT JOIN stg_deposits d ON d.deposit_id = r.security_deposit_id
WHERE r.basis = 's12_payment' AND r.s13_on_release
  AND NOT (d.deposit_id IS NOT NULL AND d.case_id = r.case_id
           AND d.amount >= coalesce(r.security_due_r, 0) AND d.deposited_on <= r.released_on)
