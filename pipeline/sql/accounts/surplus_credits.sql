-- surplus_credits: one row per entry that credits a case's unclaimed surplus to a local fund: the
-- DM's `credit_to_local_fund` entries (ledger dm_deposit) and the local fund's `surplus` entries
-- (ledger local_fund), each naming a case. s.18(5) has the DM "hold them in deposit for a period of
-- six months" and credit them only "if no claim thereto is preferred and established within that
-- period", and R12 runs the six months from each sum he receives (int_dm_receipts). Each ledger's
-- credits are set against the DM's receipts for the case in the order both were entered (day, then
-- entry id), first in first out by amount: an entry draws on the receipts its run of money overlaps.
--   draws_on             the receipts it draws on (entry ids); holding_ends_on the last day of the
--                        latest of their six months (part_holding_ends_on)
--   first_received_on    the case's first receipt (blank: the DM has received none)
--   early                dated on or before holding_ends_on, or before first_received_on, or with no
--                        receipt for the case at all: the finding DM-SURPLUS-CREDITED-EARLY (R21 of
--                        the fourth reading), and the reconciliation's `early`
-- A credit beyond every receipt (more credited than received) draws on none; it is early only if
-- dated before the first receipt, and otherwise the reconciliation's amount_mismatch.
-- Read by DM-SURPLUS-CREDITED-EARLY and the reconciliation, so the finding and the status agree.
WITH credits AS (
    SELECT 'dm_deposit' AS ledger, d.entry_id, c.case_id, c.case_ref, c.pound_id, c.local_authority_id,
           d.entry_on, d.amount
    FROM stg_dm_deposit d JOIN int_cases c ON c.case_ref = d.case_ref
    WHERE d.kind = 'credit_to_local_fund'
    UNION ALL
    SELECT 'local_fund', l.entry_id, c.case_id, c.case_ref, c.pound_id, c.local_authority_id, l.entry_on, l.amount
    FROM stg_local_fund l JOIN int_cases c ON c.case_ref = l.case_ref
    WHERE l.head = 'surplus'
),
runs AS (
    SELECT *, coalesce(sum(amount) OVER (PARTITION BY ledger, case_id ORDER BY entry_on, entry_id
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS credited_before
    FROM credits
),
drawn AS (
    SELECT e.ledger, e.entry_id,
           string_agg(r.entry_id, ' ' ORDER BY r.part_no) AS draws_on,
           max(r.part_holding_ends_on) AS holding_ends_on
    FROM runs e JOIN int_dm_receipts r
      ON r.case_id = e.case_id
     AND r.received_before < e.credited_before + e.amount
     AND e.credited_before < r.received_before + r.amount
    GROUP BY ALL
),
firsts AS (
    SELECT case_id, min(dm_received_on) AS first_received_on FROM int_dm_receipts GROUP BY case_id
)
SELECT e.ledger, e.entry_id, e.case_id, e.case_ref, e.pound_id, e.local_authority_id, e.entry_on, e.amount,
       e.credited_before, d.draws_on, d.holding_ends_on, f.first_received_on,
       coalesce(f.first_received_on IS NULL OR e.entry_on < f.first_received_on OR e.entry_on <= d.holding_ends_on,
                false) AS early
FROM runs e
LEFT JOIN drawn d USING (ledger, entry_id)
LEFT JOIN firsts f USING (case_id)
