-- rule: S13-REFUND-EARLY
-- section: 13(2)
-- severity: high
-- subject: deposit
-- checks: A deposit refunded without an application, or with the application or the refund made on or
--   before the day six months after the deposit.
-- reading: The refund is due "on the expiry of that period", on application: both dates must be after
--   deposited_on + 6 months.
SELECT 'deposit' AS subject_kind, s.deposit_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.refunded_on AS event_on,
       'Security ' || s.deposit_id || ' of ' || rs(s.amount) || ' deposited on ' || day_text(s.deposited_on) || ' was refunded on '
       || day_text(s.refunded_on) || CASE WHEN s.refund_applied_on IS NULL THEN ' with no application recorded'
                               ELSE ' on an application of ' || day_text(s.refund_applied_on) END
       || '; a refund is due only on application after the six months end on ' || day_text(s.window_ends_on) || ' (s.13(2)).' AS detail
FROM security_status s
WHERE s.refunded_on IS NOT NULL
  AND (s.refund_applied_on IS NULL OR s.refund_applied_on <= s.window_ends_on OR s.refunded_on <= s.window_ends_on)
