-- rule: S15-SALE-UNPROCLAIMED
-- section: 15(2)
-- severity: high
-- subject: sale
-- checks: An accepted sale of unclaimed cattle (s15_unclaimed) on a day when the case's police report
--   has no notice, or no proclamation by beat of drum in the village or area, or none at the market
--   place near the place of seizure, dated on or before it; or when there is no report.
-- reading: The sale of s.15(3) may only follow the notice and the proclamation of s.15(2); without them
--   the owner was never told, and the sale itself is unlawful. S15-NOTICE-MISSING is the officer's
--   duty to give them; this rule is about the sale made without them. The proclamation is made "in the
--   village or area and at the market place" (R25 of the fourth reading): proclamation_on is the
--   village's, market_proclamation_on the market place's; a file without the latter column records one
--   proclamation for both places (the loader gives each row its proclamation_on).
WITH t AS (
    SELECT t.*, c.place_of_seizure,
           t.proclamation_on IS NULL OR t.proclamation_on > s.sale_on AS no_village,
           t.market_proclamation_on IS NULL OR t.market_proclamation_on > s.sale_on AS no_market,
           t.notice_on IS NULL OR t.notice_on > s.sale_on AS no_notice,
           s.sale_id
    FROM int_sales s JOIN int_case_timeline t USING (case_id) JOIN int_cases c USING (case_id)
)
SELECT 'sale' AS subject_kind, s.sale_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.sale_on AS event_on,
       'Sale ' || s.sale_id || ' of unclaimed case ' || s.case_id || ' on ' || day_text(s.sale_on) || ' sold '
       || s.head_sold || ' head for ' || rs(s.proceeds) || ' with '
       || CASE WHEN NOT t.has_report_row THEN 'no report to the police, notice or proclamation recorded'
               WHEN t.no_notice AND t.no_village AND t.no_market THEN 'no notice and no proclamation by beat of drum before it'
               WHEN t.no_notice THEN 'no notice before it'
               WHEN t.no_village AND t.no_market THEN 'no proclamation by beat of drum before it'
               WHEN t.no_village THEN 'no proclamation by beat of drum in the village or area before it'
               ELSE 'no proclamation by beat of drum at the market place near '
                    || coalesce(t.place_of_seizure, 'the place of seizure') || ' before it' END
       || ' (s.15(2), s.15(3)).' AS detail
FROM int_sales s JOIN t USING (sale_id)
WHERE s.path = 's15_unclaimed' AND s.accepted AND NOT t.owner_appeared
  AND (t.no_notice OR t.no_village OR t.no_market)
