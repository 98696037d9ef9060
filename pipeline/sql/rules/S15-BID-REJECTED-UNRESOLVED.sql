-- rule: S15-BID-REJECTED-UNRESOLVED
-- section: 15(3)
-- severity: medium
-- subject: sale
-- checks: A bid rejected as below a fair price with no disposal recorded: no disposal note, no
--   s15_disposal row on or after it, no later auction attempt and no later release of the case.
-- reading: The s.15(3) proviso lets the officer reject the bid and "dispose of the cattle in such
--   manner as he thinks fit"; what he did must be on record. A release on the same day counts as later.
--   A disposal note that names a day for what follows ("re-auction on 03-10-2026") resolves it only until
--   that day (R26 of the fourth reading): after it, with no auction since, HEADS-LEFT-IN-POUND names the case.
SELECT 'sale' AS subject_kind, s.sale_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.sale_on AS event_on,
       'The bid of ' || rs(s.bid_amount) || ' at auction ' || s.sale_id || ' (case ' || s.case_id || ') on ' || day_text(s.sale_on)
       || ' was rejected, and neither a disposal, a later auction nor a release is recorded (s.15(3) proviso).' AS detail
FROM int_sales s JOIN int_case_timeline t USING (case_id)
WHERE NOT s.accepted AND s.disposal_note IS NULL AND NOT t.owner_appeared
  AND NOT EXISTS (SELECT 1 FROM int_sales l WHERE l.case_id = s.case_id
                    AND (l.sale_on > s.sale_on OR (l.sale_on = s.sale_on AND l.sale_id > s.sale_id)
                         -- a disposal recorded in the sales register (s15_disposal, R5) resolves it
                         OR (l.path = 's15_disposal' AND l.sale_on >= s.sale_on)))
  AND NOT EXISTS (SELECT 1 FROM int_releases r WHERE r.case_id = s.case_id AND r.released_on >= s.sale_on)
