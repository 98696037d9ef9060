-- rule: DM-SURPLUS-CREDITED-EARLY
-- section: 18(5)
-- severity: high
-- subject: expected_credit
-- checks: The unclaimed surplus of a case credited to the local fund too soon: a credit_to_local_fund
--   entry of the District Magistrate's deposit ledger, or a surplus entry of the local fund's ledger,
--   dated on or before the last day of the six months of the receipt it draws on, or before the DM
--   received anything for the case. One finding per case, naming each such entry.
-- reading: s.18(5) has the DM "hold them in deposit for a period of six months" and credit them only if
--   no claim is "preferred and established within that period": a credit on the last day of the six
--   months cuts short the owner's time to claim. The six months run from each receipt (R12); an entry
--   draws on the receipts in the order both were entered, first in first out by amount
--   (accounts/surplus_credits, which the reconciliation's `early` reads too).
SELECT 'expected_credit' AS subject_kind, case_id || ':surplus' AS subject_id, case_id, pound_id, local_authority_id,
       min(entry_on) AS event_on,
       'The unclaimed surplus of case ' || case_id || ' was credited to the local fund before the District '
       || 'Magistrate''s six months of deposit ran out: '
       || string_agg(CASE ledger WHEN 'dm_deposit' THEN 'the DM''s credit ' ELSE 'the local fund''s entry ' END
                     || entry_id || ' of ' || rs(amount) || ' on ' || day_text(entry_on)
                     || CASE WHEN first_received_on IS NULL THEN ', with no receipt by the DM recorded'
                             WHEN entry_on < first_received_on
                                 THEN ', before his first receipt of ' || day_text(first_received_on)
                             ELSE ', drawing on his receipt' || CASE WHEN draws_on LIKE '% %' THEN 's ' ELSE ' ' END
                                  || draws_on || ', whose six months end on '
                                  || day_text(holding_ends_on) END,
                     '; ' ORDER BY entry_on, ledger, entry_id)
       || ' (s.18(5)).' AS detail
FROM surplus_credits
WHERE early
GROUP BY case_id, pound_id, local_authority_id
