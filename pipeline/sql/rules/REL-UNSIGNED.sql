-- rule: REL-UNSIGNED
-- section: 12(2), 17(4)
-- severity: high
-- subject: release
-- checks: Cattle delivered to the owner without his signature or receipt in the register; and a balance of
--   an s.17 sale recorded as paid to the owner with no receipt for it (balance_receipt_signed = no; that
--   finding's subject is the sale).
-- reading: Every release except one ordered by a court needs receipt_signed = yes; a blank counts as no.
--   s.17(4) has the owner "give a receipt ... for the balance of the purchase money, if any, paid to him"
--   (R19 of the fourth reading): an accepted s.17 attempt with balance_paid above nothing and
--   balance_receipt_signed = no. That column is optional and a blank there is not recorded: no finding.
SELECT 'release' AS subject_kind, release_id AS subject_id, case_id, pound_id, local_authority_id,
       released_on AS event_on,
       'Release ' || release_id || ' of ' || head_count || ' ' || animal_class || ' (case ' || case_id || ', '
       || basis || ') on ' || day_text(released_on) || ' has no receipt signed by the owner in the register (s.12(2), s.17(4)).' AS detail
FROM int_releases
WHERE basis <> 'court_order' AND NOT receipt_signed
UNION ALL
SELECT 'sale', sale_id, case_id, pound_id, local_authority_id, coalesce(balance_paid_on, sale_on),
       'The balance of ' || rs(balance_paid) || ' of sale ' || sale_id || ' (case ' || case_id || ') on '
       || day_text(sale_on) || ', recorded as paid to the owner'
       || CASE WHEN balance_paid_on IS NOT NULL THEN ' on ' || day_text(balance_paid_on) ELSE '' END
       || ', has no receipt signed by him (s.17(4)).'
FROM int_sales
WHERE path = 's17_refusal' AND accepted AND balance_paid > 0 AND balance_receipt_signed = 'no'
