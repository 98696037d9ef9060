-- rule: REL-UNSIGNED
-- section: 12(2), 17(4)
-- severity: high
-- subject: release
-- checks: Cattle delivered to the owner without his signature or receipt in the register.
-- reading: Every release except one ordered by a court needs receipt_signed = yes; a blank counts as no.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' of ' || head_count || ' ' || animal_class || ' (case ' || case_id || ', '
       || basis || ') on ' || day_text(released_on) || ' has no receipt signed by the owner in the register (s.12(2), s.17(4)).' AS detail
FROM int_releases
WHERE basis <> 'court_order' AND NOT receipt_signed
