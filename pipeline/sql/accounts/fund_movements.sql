-- fund_movements: one row per movement of money the registers say was received,
-- to the account the Act sends it to (s.18 and the sections named per row).
-- hop 1 moves money from the payer to its first holder; hop 2 moves it on
-- (fines via the DM to the local fund; surplus via the DM's deposit to the
-- local fund six months after the DM received it, each sum he received on its own day, R12, less what
-- he refunded on a claim preferred and established in time, R23; a s.16 deposit or s.13 security to its final
-- owner). The sum of hop-1 movements of a ref equals the money received for it.
-- Movements follow the Act, not what was recorded; none of zero is written.
-- source: the register rows a movement comes from (file and row): a release's, a deposit's,
-- an order's, or a sale's rows of the sales register and then the case's impoundment row.
-- The rows are in no order (three million at a state's scale, a second to sort): every reader
-- sums them or orders them itself, the export by ref_kind, ref_id, hop, due_on, section, account.
WITH protest_resolved AS (
    -- s.16(2): held illegal (whenever the complaint was filed) -> back to the owner;
    -- declared lawful, or no complaint within complaint_window -> appropriated as
    -- fines and charges; otherwise still held (int_protests.resolution). Taken, the deposit pays
    -- the fines first, then the charges; the pound-keeper keeps only sums "on account of such
    -- charges" (s.18(3)), so what is left is the owner's (s.16(1)).
    SELECT *, protest_deposit - to_fines - to_charges AS to_owner
    FROM (SELECT *, least(protest_deposit - to_fines, feeding_due_r) AS to_charges
          FROM (SELECT *, least(protest_deposit, fine_due_r) AS to_fines
                FROM int_protests WHERE protest_deposit > 0))
),
deposits AS (
    SELECT s.*,
           CASE WHEN s.computed <> 'forfeitable' THEN 0
                WHEN getvariable('forfeit_share') = 'whole' THEN s.amount
                WHEN coalesce(s.forfeited_amount, 0) > 0 THEN least(s.forfeited_amount, s.amount)
                ELSE s.amount END AS forfeit_amount
    FROM security_status s
),
release_paid AS (
    -- R29 (s.12(1)): what a release on payment collected over its dues (int_releases) is the owner's
    -- (REL-OVERCHARGED), not the local fund's or the pound-keeper's
    SELECT *, fines_paid - fines_over_r AS fines_kept, charges_paid - charges_over_r AS charges_kept,
           fines_over_r AS fines_over, charges_over_r AS charges_over
    FROM int_releases
),
sales AS (
    -- a sale's movements come from its rows of the sales register and the case's impoundment row
    SELECT a.*, a.sale_proceeds - coalesce(a.sale_paid_expenses, 0) AS after_expenses,
           s.source || '; ' || a.source AS sale_source
    FROM case_accounts a JOIN int_case_sales s USING (case_id)
    WHERE a.sold_on IS NOT NULL
),
attempts AS (
    -- R22 of the fourth reading: each accepted attempt's waterfall moves on its own day, from its own rows
    -- of the sales register (and those of the rejected attempts whose expenses it paid) and the case's
    -- impoundment row
    SELECT t.*, t.sale_proceeds - coalesce(t.paid_expenses, 0) AS after_expenses,
           t.source || '; ' || a.source AS sale_source
    FROM sale_attempt_accounts t JOIN case_accounts a USING (case_id)
),
-- R23: what the DM refunds on a claim preferred and established in time (surplus_refunds.in_time) is
-- taken out of the local fund's credit of the receipt it draws on (first in first out by amount, as
-- surplus_refunds sets them), or of the part he has not received; a refund on no such claim takes
-- nothing (DM-CLAIM-OUT-OF-TIME) and the credit stays due. Each range is [lo, hi) of the surplus.
refund_runs AS (
    SELECT f.case_id, f.entry_id, f.refunded_before AS lo, f.refunded_before + f.amount AS hi, f.entry_on,
           f.claim_id, f.claimant, f.preferred_on, f.established_on
    FROM surplus_refunds f WHERE f.in_time
),
surplus_parts AS (
    SELECT s.case_id, r.entry_id, r.received_before AS lo,
           r.received_before + least(r.amount, greatest(s.surplus_to_dm - r.received_before, 0)) AS hi
    FROM sales s JOIN int_dm_receipts r USING (case_id) WHERE s.amounts_known
    UNION ALL
    SELECT s.case_id, NULL, least(s.surplus_to_dm, coalesce(t.received, 0)), s.surplus_to_dm
    FROM sales s LEFT JOIN (SELECT case_id, sum(amount) AS received FROM int_dm_receipts GROUP BY case_id) t
         USING (case_id)
    WHERE s.amounts_known
),
refunded_parts AS (
    SELECT p.case_id, p.entry_id,
           sum(greatest(least(p.hi, f.hi) - greatest(p.lo, f.lo), 0)) AS refunded
    FROM surplus_parts p JOIN refund_runs f USING (case_id)
    GROUP BY ALL
),
moves AS (
    -- releases: s.18(2) fines, s.18(3) charges (what was paid over them back to the owner, 12(1)),
    -- s.16(1) protest deposits
    SELECT 'case' AS ref_kind, case_id AS ref_id, '18(2)' AS section, 'local_fund' AS account,
           local_authority_id AS account_id, fines_kept AS amount, released_on AS due_on, 1 AS hop,
           'payer' AS from_account, 'fines paid at release ' || release_id AS what,
           case_id, pound_id, local_authority_id, source
    FROM release_paid
    UNION ALL
    SELECT 'case', case_id, '18(3)', 'pound_keeper', pound_id, charges_kept, released_on, 1,
           'payer', 'feeding charges paid at release ' || release_id, case_id, pound_id, local_authority_id, source
    FROM release_paid
    UNION ALL
    SELECT 'case', case_id, '12(1)', 'owner', owner_id, fines_over, released_on, 1,
           'payer', 'fines paid at release ' || release_id || ' over the fines due, owed back to the owner',
           case_id, pound_id, local_authority_id, source
    FROM release_paid
    UNION ALL
    SELECT 'case', case_id, '12(1)', 'owner', owner_id, charges_over, released_on, 1,
           'payer', 'feeding charges paid at release ' || release_id || ' over the charges due, owed back to the owner',
           case_id, pound_id, local_authority_id, source
    FROM release_paid
    UNION ALL
    SELECT 'case', case_id, '16(1)', 'protest_deposit_held', pound_id, protest_deposit, released_on, 1,
           'payer', 'deposit under protest at release ' || release_id, case_id, pound_id, local_authority_id, source
    FROM int_releases
    UNION ALL
    SELECT 'case', case_id, '16, 20', 'owner', owner_id, protest_deposit, resolved_on, 2,
           'protest_deposit_held', 'protest deposit of ' || release_id || ' returned: seizure held illegal',
           case_id, pound_id, local_authority_id, source
    FROM protest_resolved WHERE resolution = 'illegal'
    UNION ALL
    SELECT 'case', case_id, '18(2)', 'local_fund', local_authority_id, to_fines, resolved_on, 2,
           'protest_deposit_held', 'protest deposit of ' || release_id || ' taken as fines (' || resolution || ')',
           case_id, pound_id, local_authority_id, source
    FROM protest_resolved WHERE resolution IN ('lawful', 'no_complaint') AND rate_found
    UNION ALL
    SELECT 'case', case_id, '18(3)', 'pound_keeper', pound_id, to_charges, resolved_on, 2,
           'protest_deposit_held', 'protest deposit of ' || release_id || ' taken as charges (' || resolution || ')',
           case_id, pound_id, local_authority_id, source
    FROM protest_resolved WHERE resolution IN ('lawful', 'no_complaint') AND rate_found
    UNION ALL
    SELECT 'case', case_id, '16(1)', 'owner', owner_id, to_owner, resolved_on, 2,
           'protest_deposit_held', 'excess of the protest deposit of ' || release_id || ' over the fines and charges, '
               || 'returned to the owner (' || resolution || ')',
           case_id, pound_id, local_authority_id, source
    FROM protest_resolved WHERE resolution IN ('lawful', 'no_complaint') AND rate_found
    UNION ALL
    SELECT 'case', case_id, '10(1)', 'unallocated', pound_id, protest_deposit, resolved_on, 2,
           'protest_deposit_held', 'protest deposit of ' || release_id || ': no rate to split it by (RATE-MISSING)',
           case_id, pound_id, local_authority_id, source
    FROM protest_resolved WHERE resolution IN ('lawful', 'no_complaint') AND NOT rate_found
    UNION ALL
    -- s.13 security: held by the pound-keeper (s.18(4)); forfeited to the State or refunded (s.13(2)).
    -- The security an s.17 sale deducted (sale_id) was received with the sale, as a movement of the
    -- case (below): its deposit books no second receipt, only its forfeiture or refund (R1)
    SELECT 'deposit', deposit_id, '18(4)', 'pound_keeper_custody', pound_id, amount, deposited_on, 1,
           'payer', 'security deposited', case_id, pound_id, local_authority_id, source
    FROM deposits WHERE sale_id IS NULL
    UNION ALL
    SELECT 'deposit', deposit_id, '13(2)', 'state_government', 'state', forfeit_amount,
           coalesce(forfeited_on, reimpounded_on), 2, 'pound_keeper_custody',
           'security forfeited: owner re-impounded in case ' || reimpound_case_id, case_id, pound_id, local_authority_id, source
    FROM deposits WHERE computed = 'forfeitable'
    UNION ALL
    SELECT 'deposit', deposit_id, '13(2)', 'owner', owner_id,
           least(coalesce(refunded_amount, amount - forfeit_amount), amount - forfeit_amount), refunded_on, 2,
           'pound_keeper_custody', 'security refunded', case_id, pound_id, local_authority_id, source
    FROM deposits WHERE refunded_on IS NOT NULL
    UNION ALL
    -- the sale waterfall (s.15(3), s.17(2)), one per accepted attempt on its day (R22), and where each
    -- part goes (s.18)
    SELECT 'case', case_id, '17(2)', 'sale_officer', sale_officer, paid_expenses, sale_on, 1,
           'buyer', 'expenses of sale ' || sale_id, case_id, pound_id, local_authority_id, sale_source
    FROM attempts
    UNION ALL
    SELECT 'case', case_id, '18(3)', 'pound_keeper', pound_id, paid_feeding, sale_on, 1,
           'buyer', 'feeding charges deducted from sale ' || sale_id, case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    -- R20: the feeding of the days after the sale fell due, taken after the fines, the pound-keeper's too
    SELECT 'case', case_id, '18(3)', 'pound_keeper', pound_id, paid_feeding_overdue, sale_on, 1,
           'buyer', 'overdue feeding charges deducted from sale ' || sale_id || ', held ' || days_late
               || ' days after the sale fell due on ' || day_text(sale_due_on),
           case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    SELECT 'case', case_id, '18(1)', 'dm_remittance', district, paid_fines, sale_on, 1,
           'buyer', 'fines deducted from sale ' || sale_id || ', sent to the DM', case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    SELECT 'case', case_id, '18(2)', 'local_fund', local_authority_id, paid_fines, sale_on, 2,
           'dm_remittance', 'fines deducted from sale ' || sale_id || ', credited by the DM', case_id, pound_id,
           local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    SELECT 'case', case_id, '18(4)', 'pound_keeper_custody', pound_id, paid_security, sale_on, 1,
           'buyer', 'security deducted from the s.17 sale ' || sale_id, case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    SELECT 'case', case_id, '17(3)', 'owner', owner_id, balance_paid_to_owner, sale_on, 1,
           'buyer', 'balance of the s.17 sale ' || sale_id || ' paid to the owner', case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    SELECT 'case', case_id, '18(5)', 'dm_deposit', district, surplus_unclaimed, sale_on, 1,
           'buyer', 'surplus of the unclaimed sale ' || sale_id || ', held by the DM', case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    -- R19 (s.17(3), s.18(5)): the balance the owner did not take within w days of the sale is surplus
    -- unclaimed proceeds, sent to the DM on the last of those days
    SELECT 'case', case_id, '18(5)', 'dm_deposit', district, balance_unclaimed, balance_unclaimed_on, 1,
           'buyer', 'balance of the s.17 sale ' || sale_id || ' not taken by the owner by ' || day_text(balance_unclaimed_on)
               || ', held by the DM', case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE amounts_known
    UNION ALL
    -- R12: each sum the DM receives is due to the local fund the day after six months from its own
    -- receipt (int_dm_receipts), up to the surplus; what he has not received stays one movement with a
    -- blank due day (s.18(5): he cannot hold what he has not received)
    SELECT 'case', s.case_id, '18(5)', 'local_fund', s.local_authority_id,
           least(r.amount, greatest(s.surplus_to_dm - r.received_before, 0)) - coalesce(x.refunded, 0),
           r.part_credit_due_on, 2,
           'dm_deposit', 'unclaimed surplus received by the DM on ' || day_text(r.dm_received_on) || ' (' || r.entry_id
               || '), credited after his six months', s.case_id, s.pound_id, s.local_authority_id, s.sale_source
    FROM sales s JOIN int_dm_receipts r USING (case_id)
    LEFT JOIN refunded_parts x ON x.case_id = s.case_id AND x.entry_id = r.entry_id
    WHERE s.amounts_known
    UNION ALL
    SELECT 'case', s.case_id, '18(5)', 'local_fund', s.local_authority_id,
           s.surplus_to_dm - least(s.surplus_to_dm, coalesce(r.received, 0)) - coalesce(x.refunded, 0), NULL, 2,
           'dm_deposit', 'unclaimed surplus not yet received by the DM: due six months and a day after he receives it',
           s.case_id, s.pound_id, s.local_authority_id, s.sale_source
    FROM sales s LEFT JOIN (SELECT case_id, sum(amount) AS received FROM int_dm_receipts GROUP BY case_id) r USING (case_id)
    LEFT JOIN refunded_parts x ON x.case_id = s.case_id AND x.entry_id IS NULL
    WHERE s.amounts_known
    UNION ALL
    -- R23: refunded by the DM on a claim preferred within his six months and established by the refund
    SELECT 'case', s.case_id, '18(5)', 'claimant', f.claimant,
           greatest(least(s.surplus_unclaimed, f.hi) - f.lo, 0), f.entry_on, 2,
           'dm_deposit', 'unclaimed surplus refunded by the DM (' || f.entry_id || ') on claim ' || f.claim_id
               || ', preferred on ' || day_text(f.preferred_on) || ' and established on ' || day_text(f.established_on),
           s.case_id, s.pound_id, s.local_authority_id, s.sale_source
    FROM sales s JOIN refund_runs f USING (case_id) WHERE s.amounts_known
    UNION ALL
    SELECT 'case', case_id, '10(1)', 'unallocated', pound_id, after_expenses, sale_on, 1,
           'buyer', 'proceeds of sale ' || sale_id || ' after expenses: no rate to apportion them by (RATE-MISSING)',
           case_id, pound_id, local_authority_id, sale_source
    FROM attempts WHERE NOT amounts_known
    UNION ALL
    -- s.14(3): a Tahsildar's fine goes to the State; under an order made where s.14 was not
    -- notified on its issue day (s.14(1)) there was no power to fine, and it is owed back to the owner
    SELECT 'order', order_id, '14(3)', 'state_government', 'state', fine_imposed, fine_paid_on, 1,
           'payer', 's.14(3) fine paid', NULL, NULL, NULL, _file || ' row ' || _row
    FROM int_removal_orders WHERE fine_paid_on IS NOT NULL AND notified('14', taluk, issued_on)
    UNION ALL
    SELECT 'order', order_id, '14(1)', 'owner', coalesce(owner_id, owner_name), fine_imposed, fine_paid_on, 1,
           'payer', 'fine paid under an order made where s.14 is not notified: owed back to the owner',
           NULL, NULL, NULL, _file || ' row ' || _row
    FROM int_removal_orders WHERE fine_paid_on IS NOT NULL AND NOT notified('14', taluk, issued_on)
)
SELECT m.ref_kind, m.ref_id, m.section, m.account, m.account_id, m.amount, m.due_on,
       m.hop, m.from_account, m.what, m.case_id, m.pound_id, m.local_authority_id,
       -- a s.14 order has no pound: its district is that of the pounds of its taluk
       coalesce(p.district, o.district) AS district, month_of(m.due_on) AS month,
       m.source
FROM moves m
LEFT JOIN stg_pounds p ON p.pound_id = m.pound_id
LEFT JOIN int_removal_orders o ON m.ref_kind = 'order' AND o.order_id = m.ref_id
WHERE m.amount IS NOT NULL AND m.amount <> 0
