-- int_dm_receipts: one row per `receipt` entry of the DM's deposit ledger naming a case: each sum he
-- receives he holds "in deposit for a period of six months" from the day he receives it (s.18(5),
-- R12 of the third reading), so each is due to the local fund on its own day + surplus_hold_months +
-- 1 day (part_credit_due_on). received_before: what his earlier receipts for the case came to (in the
-- order entered: day, then entry id), so that fund_movements can take each part up to the surplus.
-- Every `receipt` entry is surplus (the fines of a sale are not entered in this ledger).
SELECT c.case_id, d.entry_id, d.entry_on AS dm_received_on, d.amount,
       row_number() OVER w AS part_no,
       coalesce(sum(d.amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS received_before,
       add_months(d.entry_on, getvariable('surplus_hold_months')) AS part_holding_ends_on,
       add_months(d.entry_on, getvariable('surplus_hold_months')) + 1 AS part_credit_due_on
FROM stg_dm_deposit d JOIN int_cases c ON c.case_ref = d.case_ref
WHERE d.kind = 'receipt'
WINDOW w AS (PARTITION BY c.case_id ORDER BY d.entry_on, d.entry_id)
