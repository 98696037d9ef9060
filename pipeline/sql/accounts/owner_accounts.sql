-- owner_accounts: one row per case with a sale: the account of s.17(3) items
-- (a)-(f) that goes to the owner with the balance (for s.15 sales, the same
-- account kept for whoever establishes a claim within the DM's six months).
-- Stored in no order (sorting it took up to half a second of a state's build): the export and the workbook order it, doc_owner_accounts joins it.
SELECT
    a.case_id, a.last_sale_id AS sale_id,
    -- a disposal after a rejected bid (R5) is accounted for as an unclaimed sale, and named as what it was
    CASE WHEN a.s17_sale THEN 's17_refusal' WHEN l.path = 's15_disposal' THEN 's15_disposal' ELSE 's15_unclaimed' END AS path,
    a.owner_id, a.owner_name, a.pound_id,
    a.head_count AS a_cattle_seized,
    a.impounded_on, a.sold_on,
    held_days(a.impounded_on, a.sold_on) AS b_days_impounded,
    a.sale_due_fines + a.sale_due_feeding + a.sale_due_security AS c_fines_and_charges_payable,
    a.sale_due_fines AS c_fines, a.sale_due_feeding AS c_feeding, a.sale_due_security AS c_security,
    a.head_sold AS d_cattle_sold,
    a.sale_proceeds AS e_proceeds,
    a.sale_paid_expenses AS f_expenses_of_sale,
    a.sale_paid_feeding AS f_feeding_deducted,
    a.sale_paid_fines AS f_fines_deducted,
    a.sale_paid_security AS f_security_deducted,
    a.balance_to_owner AS f_balance_to_owner,
    -- R19: of the balance, what the register records paid to the owner by balance_unclaimed_on, and what
    -- is held for him until that day and then goes to the DM (s.18(5))
    a.balance_paid_to_owner AS f_balance_paid, a.balance_unclaimed AS f_balance_held, a.balance_unclaimed_on,
    a.surplus_unclaimed AS f_surplus_to_dm,
    a.unrecovered AS f_unrecovered,
    -- heads disposed of after a rejected bid (R5) left the pound too: none of them is returned
    a.head_count - a.head_sold - a.head_disposed AS heads_returned,
    'Of ' || rs(a.sale_proceeds) || ' from ' || CASE WHEN l.path = 's15_disposal'
                                                     THEN a.head_disposed || ' head disposed of: '
                                                     ELSE a.head_sold || ' head sold: ' END
        || rs(a.sale_paid_expenses) || ' expenses of sale, '
        || rs(a.sale_paid_feeding) || ' feeding charges to the pound-keeper, '
        || rs(a.sale_paid_fines) || ' fines to the DM for the local fund, '
        || CASE WHEN a.s17_sale THEN rs(a.sale_paid_security) || ' security to the pound-keeper, '
                || CASE WHEN coalesce(a.balance_unclaimed, 0) = 0 THEN rs(a.balance_to_owner) || ' balance to the owner'
                        ELSE rs(a.balance_paid_to_owner) || ' balance paid to the owner, ' || rs(a.balance_unclaimed)
                             || ' balance held for the owner to ' || day_text(a.balance_unclaimed_on)
                             || ', to the DM under s.18(5) if not taken by then' END
                ELSE rs(a.surplus_unclaimed) || ' surplus held by the DM' END
        || CASE WHEN coalesce(a.unrecovered, 0) > 0 THEN '; ' || rs(a.unrecovered) || ' of dues not recovered' ELSE '' END
        || '.' AS f_disposal,
    a.source
FROM case_accounts a
LEFT JOIN int_sales l ON l.sale_id = a.last_sale_id
WHERE a.sold_on IS NOT NULL
