-- rule: S16-RESEIZURE-UNFOUNDED
-- section: 16(2)
-- severity: high
-- subject: case
-- checks: A re-seizure (a case whose reseizure_of names another) where the case it names has no
--   s16_protest release before it; or the complaint about that seizure was decided illegal or is still
--   pending; or it came on or before the s.16(2) trigger day u (int_protests.followup_due_on: the day
--   the seizure was declared lawful, or the end of the complaint window); or s.13 is not notified for
--   the pound's taluk on u (R10); or more heads were seized again than were delivered under protest.
-- reading: s.16(2) sends "the cattle delivered to him under sub-section (1)" back for sale under s.17
--   only when the seizure is declared lawful or no complaint is made in time, and the owner then
--   neither declares nor deposits; before that day the owner still has time, and an illegal seizure
--   returns the deposit instead. Where s.13 is not notified on u, no declaration or security could be
--   required of him, so he failed nothing (R10).
WITH r AS (
    SELECT c.case_id, c.reseizure_of, c.pound_id, c.local_authority_id, c.impounded_on, c.head_count, c.taluk
    FROM int_cases c WHERE c.reseizure_of IS NOT NULL
),
p AS (
    SELECT r.case_id, count(x.release_id) AS protests, sum(x.head_count) AS heads_delivered,
           max(x.followup_due_on) AS u, bool_or(x.outcome = 'illegal') AS illegal,
           bool_or(x.filed_on IS NOT NULL AND (x.outcome = 'pending' OR x.decided_on IS NULL)
                   AND coalesce(x.outcome, '') <> 'withdrawn') AS pending,
           max(x.released_on) AS released_on
    FROM r LEFT JOIN int_protests x
      ON x.case_id = r.reseizure_of AND x.basis = 's16_protest' AND x.released_on < r.impounded_on
    GROUP BY r.case_id
)
SELECT 'case' AS subject_kind, r.case_id AS subject_id, r.case_id, r.pound_id, r.local_authority_id,
       r.impounded_on AS event_on,
       'Case ' || r.case_id || ' seized again on ' || day_text(r.impounded_on) || ', as ' || r.head_count
       || ' head of those delivered under protest in case ' || r.reseizure_of || ', but '
       || CASE WHEN p.protests = 0 THEN 'no delivery under protest of that case is recorded before it'
               WHEN p.illegal THEN 'the seizure was held illegal on the owner''s complaint'
               WHEN p.pending THEN 'the owner''s complaint is still pending'
               WHEN p.u IS NOT NULL AND r.impounded_on <= p.u
                    THEN 'the owner had until ' || day_text(p.u) || ' to complain, or the complaint was decided only then'
               WHEN p.u IS NOT NULL AND NOT notified('13', r.taluk, p.u)
                    THEN 's.13 was not notified for ' || r.taluk || ' taluk on ' || day_text(p.u)
                         || ', so no declaration or security could be required of the owner'
               ELSE 'only ' || p.heads_delivered || ' head were delivered under protest' END
       || ': s.16(2) allows a re-seizure for sale under s.17 only after the seizure is declared lawful or no '
       || 'complaint is made in time.' AS detail
FROM r JOIN p USING (case_id)
WHERE p.protests = 0 OR p.illegal OR p.pending
   OR (p.u IS NOT NULL AND r.impounded_on <= p.u)
   OR (p.u IS NOT NULL AND NOT notified('13', r.taluk, p.u))
   OR r.head_count > p.heads_delivered
