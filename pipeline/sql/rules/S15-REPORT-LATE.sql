-- rule: S15-REPORT-LATE
-- section: 15(1)
-- severity: medium
-- subject: case
-- checks: The report of unclaimed cattle reached the police after D+w+1+report_grace.
-- reading: The report is due the day after the claim window closes (D+w+1).
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       reported_on AS event_on,
       'Unclaimed ' || animal_class || ' of case ' || case_id || ' (impounded ' || day_text(impounded_on) || ') were reported to the police on '
       || day_text(reported_on) || ', ' || (reported_on - report_due_on) || ' day(s) after the report was due on ' || day_text(report_due_on)
       || ' (s.15(1)).' AS detail
FROM int_case_timeline
WHERE NOT owner_appeared
  AND reported_on > report_grace_ends_on
