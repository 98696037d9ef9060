-- rule: DM-CLAIM-OUT-OF-TIME
-- section: 18(5)
-- severity: high
-- subject: expected_credit
-- checks: A refund to a claimant from the District Magistrate's deposit ledger (refund_to_claimant) of a
--   case's unclaimed surplus on no claim that lets him pay it: no claim recorded for the case in
--   surplus_claims, every claim preferred after the six months of the receipt the refund draws on, or
--   none preferred in time established by the refund's day. The local fund's credit stays due. One
--   finding per case, naming each such refund.
-- reading: s.18(5) has the surplus credited to the local fund "if no claim thereto is preferred and
--   established within that period" (R23): only a claim preferred within the six months of the receipt
--   the refund draws on (R12; the last day is in time) and established on or before the refund's day
--   takes the money from the local fund. A refund draws on the receipts first in first out by amount
--   (accounts/surplus_refunds); one drawing on no receipt has no six months run out. A bundle without
--   surplus_claims records no claim, so every refund there is out of time.
SELECT 'expected_credit' AS subject_kind, case_id || ':surplus' AS subject_id, case_id, pound_id, local_authority_id,
       min(entry_on) AS event_on,
       'The District Magistrate refunded the unclaimed surplus of case ' || case_id || ' on no claim preferred '
       || 'and established in time: '
       || string_agg('refund ' || entry_id || ' of ' || rs(amount) || ' on ' || day_text(entry_on)
                     || CASE why_not
                            WHEN 'no_claim' THEN ', with no claim recorded for the case'
                            WHEN 'late' THEN ', every claim preferred after the six months of his receipt'
                                 || CASE WHEN draws_on LIKE '% %' THEN 's ' ELSE ' ' END || draws_on
                                 || ' ended on ' || day_text(holding_ends_on) || ' (' || case_claims || ')'
                            ELSE ', the claim preferred in time not established by that day (' || case_claims || ')'
                        END,
                     '; ' ORDER BY entry_on, entry_id)
       || '; the local fund''s credit stays due (s.18(5)).' AS detail
FROM surplus_refunds
WHERE NOT in_time
GROUP BY case_id, pound_id, local_authority_id
