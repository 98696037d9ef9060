-- rule: S15-REPORT-MISSING
-- section: 15(1)
-- severity: medium
-- subject: case
-- checks: Cattle unclaimed after w days that were never reported to the police: nothing left the pound
--   by D+w, the owner did not appear, there is no police report, and the cattle were still in the
--   pound after the report was due (the first release or sale, else as_of, is after D+w+1+report_grace).
-- reading: w is 7 days, 3 for asses and sheep; the window D+1 .. D+w excludes the impounding day.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       report_grace_ends_on AS event_on,
       head_count || ' ' || animal_class || ' impounded on ' || day_text(impounded_on) || ' (case ' || case_id
       || ') were not claimed within ' || w || ' days, yet no report to the police is recorded; it was due on '
       || day_text(report_due_on) || ' (s.15(1)) and the cattle were still in the pound '
       || CASE WHEN first_left_on IS NULL THEN 'on ' || day_text(as_of()) ELSE 'until ' || day_text(first_left_on) END || '.' AS detail
FROM int_case_timeline
WHERE NOT owner_appeared
  AND reported_on IS NULL
  AND (first_left_on IS NULL OR first_left_on > claim_ends_on)
  AND coalesce(first_left_on, as_of()) > report_grace_ends_on
