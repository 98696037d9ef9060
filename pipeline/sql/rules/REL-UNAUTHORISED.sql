-- rule: REL-UNAUTHORISED
-- section: 19(2)
-- severity: high
-- subject: release
-- checks: A release not in accordance with Chapter IV: a court release with no order reference; a
--   release dated before the impounding; more heads released by that day than were impounded less
--   those sold by then; or a delivery of the s.17 remainder with no accepted s.17 sale on or before it.
-- reading: Heads are counted up to and including the release day (releases and accepted sales of
--   that day included). One finding per release, naming every reason that applies.
WITH counted AS (
    SELECT r.*,
           (SELECT sum(r2.head_count) FROM int_releases r2
             WHERE r2.case_id = r.case_id AND r2.released_on <= r.released_on) AS released_by_then,
           coalesce((SELECT sum(s.head_sold) FROM int_sales s
             WHERE s.case_id = r.case_id AND s.accepted AND s.sale_on <= r.released_on), 0) AS sold_by_then,
           EXISTS (SELECT 1 FROM int_sales s WHERE s.case_id = r.case_id AND s.accepted
                     AND s.path = 's17_refusal' AND s.sale_on <= r.released_on) AS s17_sold_before,
           c.head_count AS impounded_heads
    FROM int_releases r JOIN int_cases c USING (case_id)
),
reasons AS (
    SELECT *, list_filter([
        CASE WHEN basis = 'court_order' AND court_order_ref IS NULL THEN 'it is recorded as ordered by a court but names no order' END,
        CASE WHEN released_on < impounded_on THEN 'it is dated before the impounding on ' || day_text(impounded_on) END,
        CASE WHEN released_by_then > impounded_heads - sold_by_then THEN
             released_by_then || ' head had been released by then out of ' || impounded_heads || ' impounded'
             || CASE WHEN sold_by_then > 0 THEN ' less ' || sold_by_then || ' sold' ELSE '' END END,
        CASE WHEN basis = 's17_remainder' AND NOT s17_sold_before THEN
             'it delivers an s.17 remainder but no s.17 sale was accepted on or before that day' END
    ], lambda x: x IS NOT NULL) AS why
    FROM counted
)
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' of ' || head_count || ' head (case ' || case_id || ') on ' || day_text(released_on)
       || ' is not authorised by Chapter IV (s.19(2)): ' || array_to_string(why, '; ') || '.' AS detail
FROM reasons
WHERE len(why) > 0
