-- rule: S17-OVERSALE
-- section: 17(1)
-- severity: high
-- subject: case
-- checks: An s.17 sale where the proceeds less one head's price (proceeds / heads sold) would still
--   have met every due of the waterfall: more cattle were sold than necessary.
-- reading: "As many of them as may be necessary"; compared exactly in paise as
--   proceeds x (heads sold - 1) >= (dues + one head's security) x heads sold: the head not sold would
--   have been returned, and its security (at the sale day's rate where s.13 is notified) would then
--   have been due too (R1 of the second reading), also when every head was sold.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id, sold_on AS event_on,
       head_sold || ' of ' || head_count || ' ' || animal_class || ' of case ' || case_id || ' were sold on ' || day_text(sold_on)
       || ' for ' || rs(sale_proceeds) || ' against dues of '
       || rs(sale_due_total)
       || CASE WHEN coalesce(sale_security_one_more_head, 0) > 0
               THEN ' and ' || rs(sale_security_one_more_head) || ' of security on one more head returned' ELSE '' END
       || '; one head fewer would have covered them (s.17(1): only as many as necessary).' AS detail
FROM case_accounts
WHERE s17_sale AND amounts_known AND head_sold > 0
  AND sale_security_one_more_head IS NOT NULL
  AND sale_proceeds * (head_sold - 1)
      >= (sale_due_total + sale_security_one_more_head) * head_sold
