-- rule: S13-FORFEIT-UNLAWFUL
-- section: 13(2)
-- severity: high
-- subject: deposit
-- checks: A deposit recorded as forfeited although no re-impoundment of the owner within six months
--   (whose seizure was not adjudged illegal) makes it forfeitable.
-- reading: Forfeiture needs a re-impoundment in (deposited_on, deposited_on + 6 months], on or before as_of.
SELECT 'deposit' AS subject_kind, s.deposit_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.forfeited_on AS event_on,
       'Security ' || s.deposit_id || ' of ' || rs(s.amount) || ' deposited on ' || day_text(s.deposited_on) || ' by ' || s.owner_id
       || ' was recorded as forfeited on ' || day_text(s.forfeited_on) || ' (' || rs(s.forfeited_amount) || '), but the owner was not '
       || 'impounded again within six months (to ' || day_text(s.window_ends_on) || ') in a seizure not held illegal (s.13(2)).' AS detail
FROM security_status s
WHERE s.forfeited_on IS NOT NULL AND s.computed <> 'forfeitable'
