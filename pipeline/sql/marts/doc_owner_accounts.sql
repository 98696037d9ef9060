-- made as: view
-- doc_owner_accounts: one row per case with an accepted sale: the account of s.17(3) items
-- (a)-(f) delivered to the owner with the remaining cattle and the balance, for the receipt of
-- s.17(4) for the balance recorded paid (f_balance_paid; the rest, f_balance_held, is held for the owner
-- until balance_unclaimed_on and then goes to the DM under s.18(5): R19); for an s.15 sale, the account of the proceeds and the surplus the DM holds (s.18(5))
-- with the day it passes to the local fund (the fund_movements credit: the DM's receipt + 6 months
-- + 1); blank, and not printed, until the DM's ledger shows the receipt (s.18(5)). Received in parts,
-- each part passes on its own day (R12): surplus_parts names each part and its day.
-- For an s.17 sale, the heads the security was reckoned on (those returned, R1) and the deposit it
-- became, refundable on application after its six months (s.13(2)).
-- Read by `pound documents` (owner_account_<case>). Every figure is a column of owner_accounts
-- or fund_movements; this model only adds the names a page prints, such as the auctions whose
-- expenses the expenses of sale hold (every attempt's, a rejected bid's too: case_accounts).
-- Stored in no order (sorting it took up to half a second of a state's build): pound documents orders it (documents/papers.py).
WITH to_fund AS (
    -- R12: the surplus passes in parts, one per sum the DM received, each on its own day; the part not
    -- yet received has no day
    SELECT case_id, min(due_on) AS surplus_to_local_fund_on, count(*) AS surplus_part_count,
           string_agg(rs(amount) || CASE WHEN due_on IS NULL THEN ' not yet received by the District Magistrate'
                                         ELSE ' on ' || day_text(due_on) END, '; ' ORDER BY due_on NULLS LAST, amount) AS surplus_parts
    FROM fund_movements
    WHERE section = '18(5)' AND account = 'local_fund'
    GROUP BY case_id
),
security AS (
    -- R1: the security an s.17 sale kept is a s.13 deposit: its id and the end of its six months
    SELECT case_id, deposit_id AS security_deposit_id, window_ends_on AS security_refundable_after
    FROM security_status WHERE sale_id IS NOT NULL
),
attempts AS (
    SELECT case_id, count(*) AS expense_attempts,
           string_agg(sale_id || ' of ' || day_text(sale_on), ', ' ORDER BY sale_on, sale_id) AS expense_sales
    FROM int_sales
    WHERE coalesce(sale_expenses, 0) > 0
    GROUP BY case_id
)
SELECT
    o.case_id, o.sale_id, o.path, o.path = 's17_refusal' AS s17_sale,
    o.owner_id, o.owner_name, c.owner_village, o.pound_id, c.pound_name, c.taluk, c.district,
    c.animal_class, c.description, coalesce(so.name, a.sale_officer) AS sale_officer,
    o.a_cattle_seized, o.impounded_on, o.sold_on, o.b_days_impounded,
    o.c_fines_and_charges_payable, o.c_fines, o.c_feeding, o.c_security,
    -- R20, R22, R27: the overdue feeding, the day the sale fell due, and the groups of heads with their days
    o.c_feeding_overdue, o.f_feeding_overdue_deducted, o.sale_due_on, o.impounded_group_count, o.impounded_groups,
    o.d_cattle_sold, a.head_disposed AS d_cattle_disposed, o.e_proceeds,
    o.f_expenses_of_sale, o.f_feeding_deducted, o.f_fines_deducted, o.f_security_deducted,
    o.f_balance_to_owner, o.f_balance_paid, o.f_balance_held, o.balance_unclaimed_on, o.f_surplus_to_dm, o.f_unrecovered, o.heads_returned, o.f_disposal,
    a.reseizure_of, a.carried_fines, a.carried_feeding,
    f.surplus_to_local_fund_on, coalesce(f.surplus_part_count, 0) AS surplus_part_count, f.surplus_parts, coalesce(t.expense_attempts, 0) AS expense_attempts, t.expense_sales,
    a.sale_security_heads AS security_heads, sy.security_deposit_id, sy.security_refundable_after,
    o.sold_on AS doc_on, month_of(o.sold_on) AS month,
    o.source
FROM owner_accounts o
JOIN int_cases c USING (case_id)
JOIN case_accounts a USING (case_id)
LEFT JOIN to_fund f USING (case_id)
LEFT JOIN attempts t USING (case_id)
LEFT JOIN security sy USING (case_id)
LEFT JOIN stg_officials so ON so.person_id = a.sale_officer
