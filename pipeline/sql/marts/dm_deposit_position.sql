-- dm_deposit_position: per local authority, what the District Magistrate should hold in
-- deposit (s.18(5)) on the accounts' date against what his deposit ledger shows he holds.
--   surplus_received_due   surplus of unclaimed sales that the DM had to receive
--   surplus_credit_due     of it, what had to pass to the local fund after six months (by as_of)
--   held_due               surplus_received_due - surplus_credit_due
--   receipts_booked, credits_booked, refunds_booked   the DM's ledger, by kind
--   held_booked            receipts_booked - credits_booked - refunds_booked
--   held_difference        held_booked - held_due
-- A ledger entry belongs to the local authority it names, else to that of the case it refers to.
WITH due AS (
    SELECT local_authority_id,
           sum(amount) FILTER (WHERE account = 'dm_deposit') AS surplus_received_due,
           sum(amount) FILTER (WHERE account = 'local_fund' AND section = '18(5)' AND due_on <= as_of()) AS surplus_credit_due
    FROM fund_movements
    WHERE section = '18(5)'
    GROUP BY local_authority_id
),
booked AS (
    SELECT coalesce(d.local_authority_id, c.local_authority_id) AS local_authority_id,
           sum(d.amount) FILTER (WHERE d.kind = 'receipt') AS receipts_booked,
           sum(d.amount) FILTER (WHERE d.kind = 'credit_to_local_fund') AS credits_booked,
           sum(d.amount) FILTER (WHERE d.kind = 'refund_to_claimant') AS refunds_booked
    FROM stg_dm_deposit d LEFT JOIN int_cases c ON c.case_ref = d.case_ref
    GROUP BY 1
),
joined AS (
    SELECT coalesce(d.local_authority_id, b.local_authority_id) AS local_authority_id,
           coalesce(d.surplus_received_due, 0) AS surplus_received_due,
           coalesce(d.surplus_credit_due, 0) AS surplus_credit_due,
           coalesce(b.receipts_booked, 0) AS receipts_booked,
           coalesce(b.credits_booked, 0) AS credits_booked,
           coalesce(b.refunds_booked, 0) AS refunds_booked
    FROM due d FULL JOIN booked b USING (local_authority_id)
)
SELECT j.local_authority_id, la.local_authority_name, la.district,
       j.surplus_received_due, j.surplus_credit_due,
       j.surplus_received_due - j.surplus_credit_due AS held_due,
       j.receipts_booked, j.credits_booked, j.refunds_booked,
       j.receipts_booked - j.credits_booked - j.refunds_booked AS held_booked,
       (j.receipts_booked - j.credits_booked - j.refunds_booked) - (j.surplus_received_due - j.surplus_credit_due) AS held_difference
FROM joined j LEFT JOIN stg_local_authorities la USING (local_authority_id)
ORDER BY j.local_authority_id
