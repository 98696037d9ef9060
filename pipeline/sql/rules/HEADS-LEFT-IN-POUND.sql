-- rule: HEADS-LEFT-IN-POUND
-- section: 15(3)
-- severity: high
-- subject: case
-- checks: On the as-of date heads of the case are still in the pound (a) more than sale_grace days after
--   the sale was allowed (sale_grace_ends_on), though an auction was attempted or some heads have left;
--   (b) more than w days after the last release of part of the case, with no report to the police made
--   on or after that release and no sale under s.17; or (c) after the day a rejected bid's disposal note
--   names for what follows ("re-auction on 03-10-2026"), with no auction attempted since that bid. High
--   when the feeding of the heads left, from the case's first event (its first auction attempt or first
--   heads out) to the as-of date, is Rs 5,000 or more, else medium.
-- reading: s.15(3) and s.17(1) have the cattle "sold": the deadline follows the heads, not only the case
--   (R26 of the fourth reading). A case S15-SALE-OVERDUE (nothing done at all) or S15-REPORT-MISSING
--   (never reported) names on the as-of date is not named again here. A disposal note that names a day
--   resolves S15-BID-REJECTED-UNRESOLVED, but only until that day.
WITH held AS (
    SELECT t.*, c.feeding_per_head_per_day,
           t.head_count - coalesce((SELECT sum(l.heads) FROM int_leaves l
                                    WHERE l.case_id = t.case_id AND l.left_on <= as_of()), 0) AS heads_left,
           coalesce(s.s17_sale, false) AS s17_sale,
           (SELECT min(a.sale_on) FROM int_sales a WHERE a.case_id = t.case_id) AS first_attempt_on
    FROM int_case_timeline t
    JOIN int_cases c USING (case_id)
    LEFT JOIN int_case_sales s USING (case_id)
),
-- the last release that left heads of its case in the pound
part AS (
    SELECT r.case_id, max(r.released_on) AS part_released_on
    FROM int_releases r JOIN int_cases c USING (case_id)
    WHERE r.released_on <= as_of()
      AND c.head_count > (SELECT coalesce(sum(l.heads), 0) FROM int_leaves l
                          WHERE l.case_id = r.case_id AND l.left_on <= r.released_on)
    GROUP BY r.case_id
),
-- a rejected bid whose disposal note names a day (dd-mm-yyyy, or with / or .), no attempt after it
named AS (
    SELECT s.case_id, max(CAST(try_strptime(replace(replace(
               regexp_extract(s.disposal_note, '\d{1,2}[-/.]\d{1,2}[-/.]\d{4}'), '/', '-'), '.', '-'), '%d-%m-%Y') AS DATE))
               AS named_on
    FROM int_sales s
    WHERE NOT s.accepted AND s.disposal_note IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM int_sales l WHERE l.case_id = s.case_id
                        AND (l.sale_on > s.sale_on OR (l.sale_on = s.sale_on AND l.sale_id > s.sale_id)))
    GROUP BY s.case_id
),
left_in AS (
    SELECT h.*, p.part_released_on, n.named_on,
           least(h.first_attempt_on, h.first_left_on) AS first_event_on,
           NOT h.owner_appeared AND h.sale_allowed_on IS NOT NULL
               AND (h.first_s15_attempt_on IS NOT NULL OR h.first_left_on IS NOT NULL)
               AND as_of() > h.sale_grace_ends_on AS after_sale_allowed,
           p.part_released_on IS NOT NULL AND as_of() > p.part_released_on + h.w
               AND NOT (h.reported_on IS NOT NULL AND h.reported_on >= p.part_released_on)
               AND NOT h.s17_sale AS after_part_released,
           NOT h.owner_appeared AND n.named_on IS NOT NULL AND as_of() > n.named_on AS after_named_day
    FROM held h
    LEFT JOIN part p USING (case_id)
    LEFT JOIN named n USING (case_id)
    WHERE h.heads_left > 0
      -- named already, on this day, by S15-SALE-OVERDUE or S15-REPORT-MISSING
      AND NOT (NOT h.owner_appeared AND h.notice_on IS NOT NULL AND h.first_left_on IS NULL
               AND h.first_s15_attempt_on IS NULL AND as_of() > h.sale_grace_ends_on)
      AND NOT (NOT h.owner_appeared AND h.reported_on IS NULL
               AND (h.first_left_on IS NULL OR h.first_left_on > h.claim_ends_on)
               AND coalesce(h.first_left_on, as_of()) > h.report_grace_ends_on)
),
found AS (
    SELECT *,
           heads_left * feeding_per_head_per_day * CAST(as_of() - first_event_on AS BIGINT) AS feeding_left
    FROM left_in
    WHERE after_sale_allowed OR after_part_released OR after_named_day
)
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       least(CASE WHEN after_sale_allowed THEN sale_grace_ends_on END,
             CASE WHEN after_part_released THEN part_released_on + w END,
             CASE WHEN after_named_day THEN named_on END) AS event_on,
       CASE WHEN feeding_left >= 500000 THEN 'high' ELSE 'medium' END AS severity,
       heads_left || ' of the ' || head_count || ' ' || animal_class || ' of case ' || case_id
       || ' are still in the pound on ' || day_text(as_of()) || ': '
       || concat_ws('; ',
              CASE WHEN after_sale_allowed THEN 'they could be sold from ' || day_text(sale_allowed_on) || ' and were due to be by '
                   || day_text(sale_grace_ends_on) || ', and the case was acted on (first auction or heads out on '
                   || day_text(first_event_on) || ') but these heads were not sold' END,
              CASE WHEN after_part_released THEN 'part of the case was released on ' || day_text(part_released_on)
                   || ', more than ' || w || ' days before, and since then no report to the police is recorded and no sale under s.17' END,
              CASE WHEN after_named_day THEN 'the disposal note of the rejected bid named ' || day_text(named_on)
                   || ' and no auction has been attempted since' END)
       || ' (s.15(3)); their feeding since ' || day_text(first_event_on) || ' comes to '
       || CASE WHEN feeding_left IS NULL THEN 'an amount not known (no rate)' ELSE rs(feeding_left) END || '.' AS detail
FROM found
