-- rule: S15-NOTICE-MISSING
-- section: 15(2)
-- severity: medium
-- subject: case
-- checks: After a report, the notice or the proclamation by beat of drum is not recorded within
--   notice_grace days; or the proclamation is dated after the first s.15 auction attempt.
-- reading: Both the notice and the proclamation are required by s.15(2); the sale window runs from the notice.
--   A proclamation after the first auction attempt is a finding whether or not a report is recorded.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       CASE WHEN proclamation_on > first_s15_attempt_on THEN proclamation_on
            ELSE notice_grace_ends_on END AS event_on,
       CASE WHEN proclamation_on > first_s15_attempt_on THEN
                'The proclamation for case ' || case_id || ' was made on ' || day_text(proclamation_on)
                || ', after the first auction attempt on ' || day_text(first_s15_attempt_on) || ' (s.15(2)).'
            ELSE 'Case ' || case_id || ' was reported to the police on ' || day_text(reported_on) || ' but '
                || CASE WHEN notice_on IS NULL AND proclamation_on IS NULL THEN 'neither the notice nor the proclamation by beat of drum is'
                        WHEN notice_on IS NULL THEN 'the notice is'
                        ELSE 'the proclamation by beat of drum is' END
                || ' not recorded (due by ' || day_text(notice_grace_ends_on) || ', s.15(2)).' END AS detail
FROM int_case_timeline
WHERE NOT owner_appeared
  AND ((reported_on IS NOT NULL AND (notice_on IS NULL OR proclamation_on IS NULL)
        AND as_of() > notice_grace_ends_on)
       OR proclamation_on > first_s15_attempt_on)
