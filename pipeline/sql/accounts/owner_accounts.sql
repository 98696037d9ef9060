-- owner_accounts: one row per case with a sale: the account of s.17(3) items
-- (a)-(f) that goes to the owner with the balance (for s.15 sales, the same
-- account kept for whoever establishes a claim within the DM's six months).
-- R20, R22, R27, R31 of the fourth reading: the overdue feeding of a sale held late is its own line of (c)
-- and (f) (c_feeding_overdue, f_feeding_overdue_deducted; c_feeding is the feeding to the day the sale fell
-- due), and the time impounded is given per group of heads with its own days (impounded_groups): the heads
-- each accepted attempt charged for, to its day, and the s.17 remainder kept after the sale, to its release.
-- Stored in no order (sorting it took up to half a second of a state's build): the export and the workbook order it, doc_owner_accounts joins it.
WITH groups AS (
    SELECT g.case_id, count(*) AS impounded_group_count,
           string_agg(g.words, '; ' ORDER BY g.until, g.words) AS impounded_groups
    FROM (SELECT t.case_id, t.sale_on AS until,
                 t.heads_charged || ' head to the ' || CASE WHEN t.path = 's15_disposal' THEN 'disposal ' ELSE 'sale ' END
                     || t.sale_id || ' on ' || day_text(t.sale_on) || ': ' || held_days(c.impounded_on, t.sale_on) || ' days'
                     || CASE WHEN t.days_late > 0 THEN ', of which ' || t.days_late || ' after the sale fell due on '
                                                    || day_text(t.sale_due_on) ELSE '' END AS words
          FROM sale_attempt_accounts t JOIN int_cases c USING (case_id) WHERE t.heads_charged > 0
          UNION ALL
          SELECT case_id, released_on,
                 head_count || ' head kept after the sale of ' || day_text(remainder_sold_on) || ' and returned on '
                     || day_text(released_on) || ': ' || CAST(released_on - remainder_sold_on AS BIGINT)
                     || ' days more, charged at the return (s.17(3), s.12(1))'
          FROM int_releases WHERE basis = 's17_remainder' AND after_sale_feeding_r > 0) g
    GROUP BY g.case_id
),
late AS (
    SELECT case_id, min(sale_due_on) AS sale_due_on FROM sale_attempt_accounts WHERE days_late > 0 GROUP BY case_id
)
SELECT
    a.case_id, a.last_sale_id AS sale_id,
    -- a disposal after a rejected bid (R5) is accounted for as an unclaimed sale, and named as what it was
    CASE WHEN a.s17_sale THEN 's17_refusal' WHEN l.path = 's15_disposal' THEN 's15_disposal' ELSE 's15_unclaimed' END AS path,
    a.owner_id, a.owner_name, a.pound_id,
    a.head_count AS a_cattle_seized,
    a.impounded_on, a.sold_on,
    held_days(a.impounded_on, a.sold_on) AS b_days_impounded,
    -- R31: item (c) is "the amount of fine and charges payable" (s.17(3)): the fines and the feeding; the
    -- security an s.17 sale deducts with them (s.17(2), s.13) is a line of its own, c_security
    a.sale_due_fines + a.sale_due_feeding + a.sale_due_feeding_overdue AS c_fines_and_charges_payable,
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
    a.sale_unrecovered AS f_unrecovered,
    -- heads disposed of after a rejected bid (R5) left the pound too: none of them is returned
    a.head_count - a.head_sold - a.head_disposed AS heads_returned,
    -- R20: the overdue feeding of a sale held late, payable after the fines (inside (c) and (f)), and the day
    -- the sale fell due; R22, R27, R31: the time impounded of each group of heads with its own days
    a.sale_due_feeding_overdue AS c_feeding_overdue, a.sale_paid_feeding_overdue AS f_feeding_overdue_deducted,
    lt.sale_due_on, coalesce(g.impounded_group_count, 0) AS impounded_group_count, g.impounded_groups,
    'Of ' || rs(a.sale_proceeds) || ' from ' || CASE WHEN l.path = 's15_disposal'
                                                     THEN a.head_disposed || ' head disposed of: '
                                                     ELSE a.head_sold || ' head sold: ' END
        || rs(a.sale_paid_expenses) || ' expenses of sale, '
        || rs(a.sale_paid_feeding) || ' feeding charges to the pound-keeper, '
        || rs(a.sale_paid_fines) || ' fines to the DM for the local fund, '
        || CASE WHEN coalesce(a.sale_due_feeding_overdue, 0) > 0
                THEN rs(a.sale_paid_feeding_overdue) || ' feeding charges after the sale fell due to the pound-keeper, ' ELSE '' END
        || CASE WHEN a.s17_sale THEN rs(a.sale_paid_security) || ' security to the pound-keeper, '
                || CASE WHEN coalesce(a.balance_unclaimed, 0) = 0 THEN rs(a.balance_to_owner) || ' balance to the owner'
                        ELSE rs(a.balance_paid_to_owner) || ' balance paid to the owner, ' || rs(a.balance_unclaimed)
                             || ' balance held for the owner to ' || day_text(a.balance_unclaimed_on)
                             || ', to the DM under s.18(5) if not taken by then' END
                ELSE rs(a.surplus_unclaimed) || ' surplus held by the DM' END
        || CASE WHEN coalesce(a.sale_unrecovered, 0) > 0 THEN '; ' || rs(a.sale_unrecovered) || ' of dues not recovered' ELSE '' END
        || '.' AS f_disposal,
    a.source
FROM case_accounts a
LEFT JOIN int_sales l ON l.sale_id = a.last_sale_id
LEFT JOIN groups g ON g.case_id = a.case_id
LEFT JOIN late lt ON lt.case_id = a.case_id
WHERE a.sold_on IS NOT NULL
