-- rule: REL-NO-DECLARATION
-- section: 13(1)
-- severity: high
-- subject: release
-- checks: A release on payment in a taluk where s.13 is notified on the release day, made without the
--   owner's declaration of ownership.
-- reading: s.13 applies where notifications.csv has a section 13 row for the pound's taluk (or '*')
--   in force on released_on.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' (case ' || case_id || ') on ' || day_text(released_on) || ' in ' || taluk
       || ' taluk, where s.13 is notified, was made without the owner''s declaration of ownership.' AS detail
FROM int_releases
WHERE basis = 's12_payment' AND s13_on_release AND NOT declaration_made
