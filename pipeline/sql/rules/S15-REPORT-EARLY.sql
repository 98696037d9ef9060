-- rule: S15-REPORT-EARLY
-- section: 15(1)
-- severity: medium
-- subject: case
-- checks: The cattle were reported as unclaimed while the owner could still claim them (on or before D+w).
-- reading: The owner may claim on D+1 .. D+w; a report on those days starts the s.15 path too soon.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       reported_on AS event_on,
       'Case ' || case_id || ' (' || animal_class || ', impounded ' || day_text(impounded_on) || ') was reported to the police as unclaimed on '
       || day_text(reported_on) || ', while the owner could still claim until ' || day_text(claim_ends_on) || ' (s.15(1)).' AS detail
FROM int_case_timeline
WHERE NOT owner_appeared
  AND reported_on <= claim_ends_on
