-- rule: DQ-SEIZED-AFTER-IMPOUNDED
-- section: —
-- severity: low
-- subject: case
-- checks: The seizure is dated after the impounding.
-- reading: Cattle are seized first and then brought to the pound; one of the two dates is wrong. Filed
--   under the impounding day, the date that files the case in a month.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       impounded_on AS event_on,   -- the row is the impoundment: filed under its month
       'Case ' || case_id || ' records the seizure on ' || day_text(seized_on) || ', after the impounding on ' || day_text(impounded_on)
       || '; one of the two dates is wrong.' AS detail
FROM int_cases
WHERE seized_on > impounded_on
