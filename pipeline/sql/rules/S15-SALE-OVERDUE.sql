-- rule: S15-SALE-OVERDUE
-- section: 15(3)
-- severity: medium
-- subject: case
-- checks: Notice was given, nothing has left the pound, no auction has been attempted, and sale_grace
--   days have passed since the cattle could first be sold (sale_allowed_on).
-- reading: s.15(3) says the cattle "shall be sold"; sale_grace allows for fixing the auction.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       sale_grace_ends_on AS event_on,
       head_count || ' unclaimed ' || animal_class || ' of case ' || case_id || ' could be auctioned from '
       || day_text(sale_allowed_on) || ' but no auction was attempted by ' || day_text(as_of()) || ' (s.15(3)); feeding charges keep rising.' AS detail
FROM int_case_timeline
WHERE NOT owner_appeared
  AND notice_on IS NOT NULL
  AND first_left_on IS NULL
  AND first_s15_attempt_on IS NULL
  AND as_of() > sale_grace_ends_on
