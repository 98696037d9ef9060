-- rule: S15-DISPOSAL-WITHOUT-REJECTED-BID
-- section: 15(3)
-- severity: high
-- subject: sale
-- checks: A disposal of unclaimed cattle (sales path s15_disposal) with no bid for the case rejected
--   (accepted = no) on or before the disposal's day.
-- reading: The s.15(3) proviso lets the officer dispose of the cattle "in such manner as he thinks fit"
--   only after he "may reject the bid": without a rejected bid the cattle had to be sold by public
--   auction.
SELECT 'sale' AS subject_kind, s.sale_id AS subject_id, s.case_id, s.pound_id, s.local_authority_id,
       s.sale_on AS event_on,
       'Disposal ' || s.sale_id || ' of ' || s.head_sold || ' head of case ' || s.case_id || ' on ' || day_text(s.sale_on)
       || ' for ' || rs(s.proceeds) || ' (' || coalesce(s.disposal_note, 'no note') || ') followed no rejected bid: '
       || 'the s.15(3) proviso allows a disposal only after the bid at the auction is rejected.' AS detail
FROM int_sales s JOIN int_case_timeline t USING (case_id)
WHERE s.path = 's15_disposal' AND NOT t.owner_appeared
  AND NOT EXISTS (SELECT 1 FROM int_sales r WHERE r.case_id = s.case_id AND NOT r.accepted AND r.sale_on <= s.sale_on)
