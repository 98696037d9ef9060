-- made as: view
-- period_balances: for each local fund and the DM's deposit, what was due but not credited at the
-- start of a period, due and credited in it, and at its end (s.18(2), s.18(5)): the balances of the
-- pages and the audit workbook for any period, which the reader names by setting the variables
-- balances_from and balances_to (a day each; unset: from the first day, to the last) before it reads
-- (pipeline/read/balances.py). A view: the days are the reader's.
-- Every figure is a sum of balance_items (a row per due on its day, per ledger entry on its day)
-- over a set of days: before the period (opening; with no first day, the rows with no day), in it,
-- up to its end (closing). Opening and closing are summed apart from the period's due and credited,
-- so opening + due - credited = closing is a check (ties), not a definition; the build checks the
-- same month by month on fund_balances.
--   credited_for_period_dues / _for_earlier_dues / _other   what the period's credits paid: dues of the
--                 period, dues of before it, or nothing due by its last day
--   missing_at_end, unexpected_at_end  the closing figure's two parts, each a sum of its own rows: the dues
--                 by the end less the credits that paid them, and credits for nothing due by then
--                 (closing = missing - unexpected)
--   held_*        the DM's deposit only (blank for a local fund): what his ledger shows he held, and what
--                 he should have held by the Act, at the start and at the end
-- A fund has a row when it has a row of balance_items on or before the period's last day.
WITH p AS (
    SELECT CAST(getvariable('balances_from') AS DATE) AS s, CAST(getvariable('balances_to') AS DATE) AS e
),
items AS (
    SELECT i.*, p.s, p.e,
           coalesce(CASE WHEN p.s IS NOT NULL THEN i.on_date < p.s ELSE i.on_date IS NULL END, false) AS before,
           coalesce(CASE WHEN p.e IS NOT NULL THEN i.on_date <= p.e ELSE i.on_date IS NOT NULL END, false) AS upto
    FROM balance_items i CROSS JOIN p
),
marked AS (
    SELECT *, upto AND coalesce(s IS NULL OR on_date >= s, false) AS during,
           -- paying nothing due by the period's last day
           coalesce(for_due_on IS NULL OR (e IS NOT NULL AND for_due_on > e), false) AS for_none
    FROM items
),
sums AS (
    SELECT ledger, local_authority_id, local_authority_name, district,
           coalesce(sum(balance_change) FILTER (WHERE before), 0) AS opening_due_not_credited,
           coalesce(sum(due_amount) FILTER (WHERE during), 0) AS due,
           coalesce(sum(credited_amount) FILTER (WHERE during), 0) AS credited,
           coalesce(sum(credited_amount) FILTER (WHERE during AND coalesce(CASE WHEN s IS NOT NULL THEN for_due_on >= s
                                                                             ELSE for_due_on IS NOT NULL END
                                                                        AND (e IS NULL OR for_due_on <= e), false)), 0)
               AS credited_for_period_dues,
           coalesce(sum(credited_amount) FILTER (WHERE during AND coalesce(for_due_on < s, false)), 0)
               AS credited_for_earlier_dues,
           coalesce(sum(credited_amount) FILTER (WHERE during AND for_none), 0) AS credited_other,
           coalesce(sum(balance_change) FILTER (WHERE upto), 0) AS closing_due_not_credited,
           coalesce(sum(balance_change) FILTER (WHERE upto AND (side = 'due' OR coalesce(
               CASE WHEN e IS NOT NULL THEN for_due_on <= e ELSE for_due_on IS NOT NULL END, false))), 0) AS missing_at_end,
           coalesce(sum(credited_amount) FILTER (WHERE upto AND side = 'entry' AND for_none), 0) AS unexpected_at_end,
           coalesce(sum(held_change) FILTER (WHERE before), 0) AS held_start,
           coalesce(sum(held_change) FILTER (WHERE upto), 0) AS held_end,
           coalesce(sum(held_due_change) FILTER (WHERE before), 0) AS held_due_start,
           coalesce(sum(held_due_change) FILTER (WHERE upto), 0) AS held_due_end
    FROM marked
    GROUP BY ledger, local_authority_id, local_authority_name, district
    HAVING bool_or(before OR upto)
)
SELECT ledger, local_authority_id, local_authority_name, district,
       CAST(opening_due_not_credited AS BIGINT) AS opening_due_not_credited, CAST(due AS BIGINT) AS due,
       CAST(credited AS BIGINT) AS credited, CAST(credited_for_period_dues AS BIGINT) AS credited_for_period_dues,
       CAST(credited_for_earlier_dues AS BIGINT) AS credited_for_earlier_dues,
       CAST(credited_other AS BIGINT) AS credited_other,
       CAST(closing_due_not_credited AS BIGINT) AS closing_due_not_credited,
       CAST(missing_at_end AS BIGINT) AS missing_at_end, CAST(unexpected_at_end AS BIGINT) AS unexpected_at_end,
       CASE WHEN ledger = 'dm_deposit' THEN CAST(held_start AS BIGINT) END AS held_start,
       CASE WHEN ledger = 'dm_deposit' THEN CAST(held_end AS BIGINT) END AS held_end,
       CASE WHEN ledger = 'dm_deposit' THEN CAST(held_due_start AS BIGINT) END AS held_due_start,
       CASE WHEN ledger = 'dm_deposit' THEN CAST(held_due_end AS BIGINT) END AS held_due_end,
       opening_due_not_credited + due - credited = closing_due_not_credited
       AND credited_for_period_dues + credited_for_earlier_dues + credited_other = credited
       AND missing_at_end - unexpected_at_end = closing_due_not_credited AS ties
FROM sums
