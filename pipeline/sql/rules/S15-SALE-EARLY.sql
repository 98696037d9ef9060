-- rule: S15-SALE-EARLY
-- section: 15(3)
-- severity: medium
-- subject: sale
-- checks: An auction of unclaimed cattle held before the notice window ran out (sale_on < sale_allowed_on),
--   or with no notice at all.
-- reading: The owner may claim on N+1 .. N+w after the notice N (or after the report, if the notice is
--   dated before it: R24; or after the last proclamation, in the village or area or at the market place,
--   if it came later: R25); the earliest lawful auction day is N+w+1.
--   Every attempt is checked, rejected bids included.
SELECT 'sale' AS subject_kind, s.sale_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.sale_on AS event_on,
       CASE WHEN t.notice_on IS NULL THEN
                'Auction ' || s.sale_id || ' of unclaimed case ' || s.case_id || ' on ' || day_text(s.sale_on)
                || ' was held with no notice under s.15(2) recorded (s.15(3)).'
            ELSE 'Auction ' || s.sale_id || ' of unclaimed case ' || s.case_id || ' on ' || day_text(s.sale_on)
                || ' was held before the earliest lawful day ' || day_text(t.sale_allowed_on) || ' (notice on '
                || day_text(t.notice_on)
                || CASE WHEN t.reported_on > t.notice_on THEN ', before the report of ' || day_text(t.reported_on) ELSE '' END
                || CASE WHEN t.window_from > greatest(t.notice_on, t.reported_on)
                        THEN ', the last proclamation by beat of drum on ' || day_text(t.window_from) ELSE '' END
                || ', ' || t.w || ' days to claim; s.15(3)).' END AS detail
FROM int_sales s JOIN int_case_timeline t USING (case_id)
WHERE s.path = 's15_unclaimed' AND NOT t.owner_appeared
  AND (t.notice_on IS NULL OR s.sale_on < t.sale_allowed_on)
