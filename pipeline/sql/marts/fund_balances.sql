-- fund_balances: per ledger (a local fund, or the DM's deposit), local authority and month,
-- the balance of what was due but not credited rolled forward from balance_items:
--   opening_due_not_credited   every due less every credit before the month
--   due, credited              in the month (credited split: for dues of the month, for
--                              earlier dues, and for neither: later dues or none matched)
--   closing_due_not_credited   every due less every credit to the month's end
--   held_start, held_end       the DM's deposit as his ledger shows it (receipts less credits
--                              to local funds less refunds) before and at the end of the month
--   held_due_start, held_due_end  what he should hold by the Act (s.18(5))
--   balance_check              opening + due - credited - closing (must be 0; the build stops otherwise)
-- Only months with a movement have a row; a month between keeps the balance of the one before.
WITH by_month AS (
    SELECT ledger, local_authority_id, month,
           sum(due_amount) AS due, sum(credited_amount) AS credited,
           sum(credited_amount) FILTER (WHERE month_of(for_due_on) = month) AS credited_for_month_dues,
           sum(credited_amount) FILTER (WHERE month_of(for_due_on) < month) AS credited_for_earlier_dues,
           sum(balance_change) AS balance_change, sum(held_change) AS held_change,
           sum(held_due_change) AS held_due_change
    FROM balance_items WHERE on_date IS NOT NULL
    GROUP BY ALL
),
rolled AS (
    SELECT *,
           coalesce(sum(balance_change) OVER w_before, 0) AS opening_due_not_credited,
           sum(balance_change) OVER w_to AS closing_due_not_credited,
           coalesce(sum(held_change) OVER w_before, 0) AS held_start,
           sum(held_change) OVER w_to AS held_end,
           coalesce(sum(held_due_change) OVER w_before, 0) AS held_due_start,
           sum(held_due_change) OVER w_to AS held_due_end
    FROM by_month
    WINDOW w_before AS (PARTITION BY ledger, local_authority_id ORDER BY month
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
           w_to AS (PARTITION BY ledger, local_authority_id ORDER BY month
                    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT r.ledger, r.local_authority_id, la.local_authority_name, la.district, r.month,
       r.opening_due_not_credited, r.due, r.credited,
       coalesce(r.credited_for_month_dues, 0) AS credited_for_month_dues,
       coalesce(r.credited_for_earlier_dues, 0) AS credited_for_earlier_dues,
       r.credited - coalesce(r.credited_for_month_dues, 0) - coalesce(r.credited_for_earlier_dues, 0) AS credited_other,
       r.closing_due_not_credited,
       r.held_start, r.held_end, r.held_due_start, r.held_due_end,
       r.opening_due_not_credited + r.due - r.credited - r.closing_due_not_credited AS balance_check
FROM rolled r LEFT JOIN stg_local_authorities la ON la.local_authority_id = r.local_authority_id
ORDER BY r.ledger, r.local_authority_id, r.month
