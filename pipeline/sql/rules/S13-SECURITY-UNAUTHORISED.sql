-- rule: S13-SECURITY-UNAUTHORISED
-- section: 13(1)
-- severity: high
-- subject: deposit
-- checks: Security taken where s.13 is not notified for the pound's taluk on the day of the deposit.
-- reading: s.13 applies only in local areas the State Government has notified (notifications.csv).
SELECT 'deposit' AS subject_kind, s.deposit_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.deposited_on AS event_on,
       'Security ' || s.deposit_id || ' of ' || rs(s.amount) || ' was taken on ' || day_text(s.deposited_on) || ' at pound ' || s.pound_id
       || ' in ' || s.taluk || ' taluk, where s.13 was not notified that day; it should be returned.' AS detail
FROM security_status s
WHERE NOT notified('13', s.taluk, s.deposited_on)
