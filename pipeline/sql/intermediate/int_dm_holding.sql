-- int_dm_holding: one row per case the DM's deposit ledger shows a receipt for: the six months
-- of s.18(5) ("who shall hold them in deposit for a period of six months") from his first
-- `receipt` entry for the case, since he cannot hold what he has not received (R2 of the
-- second reading): before dm_holding_ends_on no part of the surplus may reach the local fund
-- (the reconciliation's `early`). Each sum he receives is due to the local fund on its own day
-- (int_dm_receipts, R12). A case with no receipt has no row: its six months have not begun.
WITH r AS (
    SELECT c.case_id, min(d.entry_on) AS dm_received_on
    FROM stg_dm_deposit d JOIN int_cases c ON c.case_ref = d.case_ref
    WHERE d.kind = 'receipt'
    GROUP BY c.case_id
)
SELECT case_id, dm_received_on,
       add_months(dm_received_on, getvariable('surplus_hold_months')) AS dm_holding_ends_on
FROM r
