-- rule: S13-FORFEIT-MISSED
-- section: 13(2)
-- severity: high
-- subject: deposit
-- checks: A deposit that is forfeitable (the owner was re-impounded within six months and the seizure
--   was not adjudged illegal) but was refunded, or is not recorded as forfeited.
-- reading: Six calendar months, clamped to month end; the re-impounding day may be the last day of the window.
SELECT 'deposit' AS subject_kind, s.deposit_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.reimpounded_on AS event_on,
       'Security ' || s.deposit_id || ' of ' || rs(s.amount) || ' deposited on ' || day_text(s.deposited_on) || ' by ' || s.owner_id
       || ' should stand forfeited to the State: the owner''s cattle were impounded again on ' || day_text(s.reimpounded_on)
       || ' (case ' || s.reimpound_case_id || '), within six months; the register shows it '
       || CASE WHEN s.recorded = 'refunded' THEN 'refunded on ' || day_text(s.refunded_on) ELSE 'still held' END || ' (s.13(2)).' AS detail
FROM security_status s
WHERE s.computed = 'forfeitable' AND s.recorded <> 'forfeited'
