-- rule: S17-PATH-UNFOUNDED
-- section: 17(1)
-- severity: high
-- subject: sale
-- checks: An accepted sale recorded as s17_refusal with nothing to show the owner appeared: the case
--   records no owner and the sale no person who appeared; or the owner is recorded to have appeared
--   after the sale's day; or the case was reported to the police under s.15(1) and no appearance on or
--   after the report's day is recorded. The case is then read as unclaimed: the rules of s.15 judge it and
--   what its sale left after the dues is surplus for the District Magistrate (s.18(5)).
-- reading: s.17(1) opens "If the owner or his agent appears before the pound-keeper and refuses or
--   omits to pay": the register's path alone does not found it (R18). A report under s.15(1) says the
--   cattle were not claimed, so only an appearance on or after it can found an s.17 sale. A re-seizure's
--   sale (reseizure_of) is founded by the re-seizure under s.16(2). The columns owner_appeared_on and
--   appeared_person are optional: a file without them records no appearance (int_sales.s17_unfounded).
SELECT 'sale' AS subject_kind, sale_id AS subject_id, case_id, pound_id, local_authority_id,
       sale_on AS event_on,
       'Sale ' || sale_id || ' (case ' || case_id || ') on ' || day_text(sale_on) || ' is recorded under s.17, but '
       || concat_ws('; ',
            CASE WHEN unfounded_no_owner THEN 'the case records no owner and the sale no person who appeared' END,
            CASE WHEN unfounded_appeared_after THEN 'the owner is recorded to have appeared on '
                 || day_text(owner_appeared_on) || ', after the sale' END,
            CASE WHEN unfounded_after_report THEN 'the cattle were reported unclaimed to the police on '
                 || day_text(reported_on) || ' and no appearance of the owner '
                 || CASE WHEN owner_appeared_on IS NULL THEN 'is recorded' ELSE 'after it is recorded (only on '
                         || day_text(owner_appeared_on) || ')' END END)
       || ': nothing shows the owner or his agent appeared and refused to pay (s.17(1)). The case is read as '
       || 'unclaimed: the s.15 rules apply and what the sale left is surplus for the District Magistrate (s.18(5)).' AS detail
FROM int_sales
WHERE s17_unfounded
