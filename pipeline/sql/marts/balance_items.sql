-- balance_items: one row per amount that moves a balance of a local fund or of the DM's
-- deposit (s.18(2), s.18(5)): each expected credit (fund_movements) on its due_on, each
-- ledger entry (ledger_entries) on its entry_on. A period's balances are sums of these
-- rows over on_date (period_balances); fund_balances rolls them forward by month. The rows are
-- in no order: every reader sums them.
--   ledger            'local_fund' or 'dm_deposit' (the DM's receipts of unclaimed surplus)
--   side              'due' (an expected credit) or 'entry' (a ledger entry)
--   due_amount        what had to be credited (due rows)
--   credited_amount   what the ledger shows credited against it (entry rows; a DM credit
--                     to a local fund or refund is no receipt: 0 here)
--   balance_change    due_amount - credited_amount: the change in what is due but not credited
--   for_due_on        of an entry: the due_on of the expected credit it is matched to in
--                     reconciliation (same authority, reference and head); NULL if none
--   held_change       of a DM entry: + a receipt, - a credit to a local fund or a refund
--                     (what the DM's ledger shows he holds)
--   held_due_change   what the DM should hold: + surplus due to him (a 'receipt' due row), - surplus
--                     due from him to a local fund six months after his receipt (a 'credit_to_local_fund'
--                     due row of the dm_deposit ledger, which adds nothing to due_amount), or refunded
--                     by him on a claim in time (a 'refund_to_claimant' due row, R23); before
--                     any receipt it has no day and moves no period's balance (s.18(5))
WITH keyed AS (
    SELECT ledger, local_authority_id, case_ref, head, due_on
    FROM reconciliation WHERE expected_amount IS NOT NULL
),
dues AS (
    SELECT CASE WHEN m.account = 'dm_deposit' THEN 'dm_deposit' ELSE 'local_fund' END AS ledger,
           'due' AS side, m.local_authority_id, m.ref_id AS reference,
           CASE WHEN m.account = 'dm_deposit' THEN 'receipt' WHEN m.section = '18(5)' THEN 'surplus' ELSE 'fines' END AS head,
           m.due_on AS on_date, m.amount AS due_amount, 0 AS credited_amount, m.due_on AS for_due_on,
           0 AS held_change,
           CASE WHEN m.account = 'dm_deposit' THEN m.amount ELSE 0 END AS held_due_change,
           m.section, NULL AS entry_id, m.source
    FROM fund_movements m WHERE m.account IN ('local_fund', 'dm_deposit')
    UNION ALL
    -- the surplus the DM must pass to a local fund leaves what he should hold on its due day
    SELECT 'dm_deposit', 'due', m.local_authority_id, m.ref_id, 'credit_to_local_fund', m.due_on, 0, 0, NULL, 0,
           -m.amount, m.section, NULL, m.source
    FROM fund_movements m WHERE m.account = 'local_fund' AND m.section = '18(5)'
    UNION ALL
    -- and so does what he refunds on a claim preferred and established in time, on the refund's day (R23)
    SELECT 'dm_deposit', 'due', m.local_authority_id, m.ref_id, 'refund_to_claimant', m.due_on, 0, 0, NULL, 0,
           -m.amount, m.section, NULL, m.source
    FROM fund_movements m WHERE m.account = 'claimant' AND m.from_account = 'dm_deposit'
),
entries AS (
    SELECT e.ledger, 'entry' AS side, e.local_authority_id, e.reference,
           CASE WHEN e.ledger = 'dm_deposit' AND e.kind = 'receipt' THEN 'receipt' ELSE e.kind END AS head,
           e.entry_on AS on_date, 0 AS due_amount,
           CASE WHEN e.ledger = 'local_fund' OR e.kind = 'receipt' THEN e.amount ELSE 0 END AS credited_amount,
           CASE WHEN e.ledger = 'local_fund' OR e.kind = 'receipt' THEN k.due_on END AS for_due_on,
           CASE WHEN e.ledger = 'local_fund' THEN 0 WHEN e.kind = 'receipt' THEN e.amount ELSE -e.amount END AS held_change,
           0 AS held_due_change,
           CASE WHEN e.ledger = 'local_fund' THEN '18(2), 18(5)' ELSE '18(5)' END AS section,
           e.entry_id, e.file || ' row ' || e.row AS source
    FROM ledger_entries e
    LEFT JOIN keyed k ON k.ledger = e.ledger AND k.local_authority_id IS NOT DISTINCT FROM e.local_authority_id
                     AND k.case_ref = e.case_ref
                     AND k.head = CASE WHEN e.ledger = 'dm_deposit' THEN 'receipt' ELSE e.kind END
)
SELECT i.ledger, i.side, i.local_authority_id, la.local_authority_name, la.district, i.reference, i.head,
       i.on_date, month_of(i.on_date) AS month, i.due_amount, i.credited_amount,
       i.due_amount - i.credited_amount AS balance_change, i.for_due_on, i.held_change, i.held_due_change,
       i.section, i.entry_id, i.source
FROM (SELECT * FROM dues UNION ALL SELECT * FROM entries) i
LEFT JOIN stg_local_authorities la ON la.local_authority_id = i.local_authority_id
