-- expected_credits: what the two ledgers should show that the Act sends them, one row per
-- ledger, local authority, reference and head, from fund_movements:
--   local_fund / fines    fines passed to the local fund (s.18(2));
--   local_fund / surplus  unclaimed surplus the DM credits to it after his months (s.18(5));
--   dm_deposit / receipt  unclaimed surplus the DM must receive (s.18(5)).
-- A reference's movements of one head are summed; the credit is due on the latest one's day.
-- The local fund's surplus comes in parts, one per sum the DM received (R12): the row expects the
-- parts due by the as-of date, on the latest of their days (due_later: the parts due after it, which
-- the fund's balances hold on their own days); while none is due yet, the parts received, on the
-- earliest one's day; while the DM has received nothing, the whole surplus with no day (pending, R2).
-- case_ref: the case's (int_cases), the key a ledger's entries are matched on.
-- The reconciliation sets these against the ledgers; the synthetic ledgers are written from them.
-- Stored in no order (sorting it took up to half a second of a state's build): its readers (models, synth) join, sum or order it.
SELECT ledger, local_authority_id, reference, case_ref, head,
       CASE WHEN head <> 'surplus' THEN sum(amount)
            WHEN bool_or(due_on <= as_of()) THEN sum(amount) FILTER (WHERE due_on <= as_of())
            WHEN bool_or(due_on IS NOT NULL) THEN sum(amount) FILTER (WHERE due_on IS NOT NULL)
            ELSE sum(amount) END AS expected_amount,
       CASE WHEN head <> 'surplus' THEN max(due_on)
            WHEN bool_or(due_on <= as_of()) THEN max(due_on) FILTER (WHERE due_on <= as_of())
            ELSE min(due_on) END AS due_on,
       CASE WHEN head = 'surplus' AND bool_or(due_on <= as_of())
            THEN coalesce(sum(amount) FILTER (WHERE due_on > as_of()), 0) ELSE 0 END AS due_later
FROM (
    SELECT 'local_fund' AS ledger, m.account_id AS local_authority_id, m.ref_id AS reference, k.case_ref,
           CASE WHEN m.section = '18(5)' THEN 'surplus' ELSE 'fines' END AS head, m.amount, m.due_on
    FROM fund_movements m LEFT JOIN int_cases k ON k.case_id = m.case_id WHERE m.account = 'local_fund'
    UNION ALL
    SELECT 'dm_deposit', m.local_authority_id, m.ref_id, k.case_ref, 'receipt', m.amount, m.due_on
    FROM fund_movements m LEFT JOIN int_cases k ON k.case_id = m.case_id WHERE m.account = 'dm_deposit'
)
GROUP BY ledger, local_authority_id, reference, case_ref, head
