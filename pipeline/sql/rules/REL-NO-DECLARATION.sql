-- rule: REL-NO-DECLARATION
-- section: 13(1)
-- severity: high
-- subject: release
-- checks: A release in a taluk where s.13 is notified on the release day, made without the owner's
--   declaration of ownership: a release on payment or the cattle remaining after an s.17 sale; not a
--   court's order or a delivery under protest.
-- reading: s.13 applies where notifications.csv has a section 13 row for the pound's taluk (or '*')
--   in force on released_on. s.13(1) asks for the declaration "before releasing any impounded cattle",
--   so the s.17 remainder owes it too (R28 of the fourth reading); s.16(2) defers it for a delivery
--   under protest, and a court's order releases the cattle on its own terms.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' (case ' || case_id || ') on ' || day_text(released_on) || ' in ' || taluk
       || ' taluk, where s.13 is notified, was made without the owner''s declaration of ownership.' AS detail
FROM int_releases
WHERE basis NOT IN ('court_order', 's16_protest') AND s13_on_release AND NOT declaration_made
