-- expected_credits: what the two ledgers should show that the Act sends them, one row per
-- ledger, local authority, reference and head, from fund_movements:
--   local_fund / fines    fines passed to the local fund (s.18(2));
--   local_fund / surplus  unclaimed surplus the DM credits to it after his months (s.18(5));
--   dm_deposit / receipt  unclaimed surplus the DM must receive (s.18(5)).
-- A reference's movements of one head are summed; the credit is due on the latest one's day.
-- The reconciliation sets these against the ledgers; the synthetic ledgers are written from them.
SELECT ledger, local_authority_id, reference, head, sum(amount) AS expected_amount, max(due_on) AS due_on
FROM (
    SELECT 'local_fund' AS ledger, account_id AS local_authority_id, ref_id AS reference,
           CASE WHEN section = '18(5)' THEN 'surplus' ELSE 'fines' END AS head, amount, due_on
    FROM fund_movements WHERE account = 'local_fund'
    UNION ALL
    SELECT 'dm_deposit', local_authority_id, ref_id, 'receipt', amount, due_on
    FROM fund_movements WHERE account = 'dm_deposit'
)
GROUP BY ALL
ORDER BY ledger, local_authority_id, reference, head
