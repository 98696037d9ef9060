-- rule: DQ-HEADS-MISMATCH
-- section: —
-- severity: low
-- subject: case
-- checks: More heads released and sold than were impounded.
-- reading: Released heads of every basis plus heads sold in accepted attempts, against head_count.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       last_left_on AS event_on,
       'Case ' || case_id || ' impounded ' || head_count || ' ' || animal_class || ' but records ' || heads_out
       || ' head leaving (' || heads_released || ' released, ' || heads_sold || ' sold).' AS detail
FROM (
    SELECT c.case_id, c.pound_id, c.local_authority_id, c.head_count, c.animal_class,
           sum(l.heads) AS heads_out,
           coalesce(sum(l.heads) FILTER (WHERE l.event = 'release'), 0) AS heads_released,
           coalesce(sum(l.heads) FILTER (WHERE l.event = 'sale'), 0) AS heads_sold,
           max(l.left_on) AS last_left_on
    FROM int_cases c JOIN int_leaves l USING (case_id)
    GROUP BY ALL
)
WHERE heads_out > head_count
