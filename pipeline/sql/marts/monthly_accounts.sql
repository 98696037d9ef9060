-- monthly_accounts: one row per month x pound, the District Magistrate's review.
-- Months run from the month of the first impounding in the database to the
-- as-of month, for every pound. Heads: start + impounded - released - sold - disposed = end
-- (heads_check must be 0; the build stops otherwise). heads_disposed: heads disposed of after a
-- rejected bid (s.15(3) proviso), apart from those sold; heads_reseized: of the heads impounded,
-- those seized again under s.16(2) after a delivery under protest (their release counted them out). Money measures are in
-- paise, each dated one way only:
--   fines_received          fines received in the month: paid at a release (s.12, to the
--                           local fund under s.18(2)) or deducted from a sale completed in the
--                           month (s.17(2), sent to the DM under s.18(1)); by the day received
--   feeding_received        feeding charges paid at releases or deducted from sales (s.18(3))
--   protest_deposits        deposits under protest (s.16(1)), by the day of the delivery
--   security_received       security deposited, and security deducted from s.17 sales (s.13, s.18(4))
--   security_refunded / security_forfeited   (s.13(2)), by their day
--   sale_proceeds           accepted bids of the sales completed in the month (by the day of
--                           each accepted attempt, as the money movements are: R22)
--   sale_expenses_incurred  expenses of every auction attempt held in the month, accepted
--                           or not (by the attempt's day)
--   sale_expenses_deducted  expenses taken out of the proceeds of the sales completed in the
--                           month (s.17(2)); they include the failed attempts each one paid for
--   surplus_to_dm           unclaimed surplus sent to the DM (s.18(5))
--   local_fund_due          every credit the local fund should receive that falls due in the month
--   local_fund_ledger       credits the local fund's ledger shows for this pound's cases, by entry day
--   findings, findings_high findings about the pound whose event falls in the month
WITH months AS (
    SELECT CAST(m AS DATE) AS month_start,
           CAST(m + INTERVAL 1 MONTH AS DATE) - 1 AS month_end
    FROM range(date_trunc('month', (SELECT min(impounded_on) FROM stg_impoundments)),
               date_trunc('month', as_of()) + INTERVAL 1 MONTH, INTERVAL 1 MONTH) t(m)
),
grid AS (
    SELECT p.pound_id, p.pound_name, p.local_authority_id, p.taluk, p.district, m.month_start, m.month_end
    FROM stg_pounds p CROSS JOIN months m
),
flows AS (
    SELECT pound_id, CAST(date_trunc('month', impounded_on) AS DATE) AS month_start,
           head_count AS heads_in, 0 AS heads_released, 0 AS heads_sold, 0 AS heads_disposed, 1 AS cases_in,
           CASE WHEN reseizure_of IS NOT NULL THEN head_count ELSE 0 END AS heads_reseized
    FROM int_cases
    UNION ALL
    SELECT r.pound_id, CAST(date_trunc('month', r.released_on) AS DATE), 0, r.head_count, 0, 0, 0, 0 FROM int_releases r
    UNION ALL
    SELECT s.pound_id, CAST(date_trunc('month', s.sale_on) AS DATE), 0, 0,
           CASE WHEN s.path <> 's15_disposal' THEN s.head_sold ELSE 0 END,
           CASE WHEN s.path = 's15_disposal' THEN s.head_sold ELSE 0 END, 0, 0
    FROM int_sales s WHERE s.accepted
),
flow_month AS (
    SELECT pound_id, month_start, sum(heads_in) AS heads_in, sum(heads_released) AS heads_released,
           sum(heads_sold + heads_disposed) AS heads_sold_or_disposed,
           sum(heads_sold) AS heads_sold, sum(heads_disposed) AS heads_disposed, sum(cases_in) AS cases_in,
           sum(heads_reseized) AS heads_reseized
    FROM flows GROUP BY ALL
),
before_range AS (
    SELECT pound_id, sum(heads_in - heads_released - heads_sold - heads_disposed) AS heads
    FROM flows WHERE month_start < (SELECT min(month_start) FROM months) GROUP BY pound_id
),
heads AS (
    SELECT g.*,
           coalesce(f.heads_in, 0) AS heads_impounded, coalesce(f.heads_released, 0) AS heads_released,
           coalesce(f.heads_sold, 0) AS heads_sold, coalesce(f.cases_in, 0) AS cases_in,
           coalesce(f.heads_disposed, 0) AS heads_disposed, coalesce(f.heads_reseized, 0) AS heads_reseized,
           coalesce(b.heads, 0) + coalesce(sum(coalesce(f.heads_in, 0) - coalesce(f.heads_released, 0) - coalesce(f.heads_sold_or_disposed, 0))
               OVER (PARTITION BY g.pound_id ORDER BY g.month_start ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS heads_start,
           coalesce(b.heads, 0) + sum(coalesce(f.heads_in, 0) - coalesce(f.heads_released, 0) - coalesce(f.heads_sold_or_disposed, 0))
               OVER (PARTITION BY g.pound_id ORDER BY g.month_start ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS heads_end
    FROM grid g
    LEFT JOIN flow_month f ON f.pound_id = g.pound_id AND f.month_start = g.month_start
    LEFT JOIN before_range b ON b.pound_id = g.pound_id
),
money AS (
    SELECT pound_id, CAST(date_trunc('month', due_on) AS DATE) AS month_start,
           sum(amount) FILTER (WHERE hop = 1 AND account IN ('local_fund', 'dm_remittance') AND section IN ('18(1)', '18(2)')) AS fines_received,
           sum(amount) FILTER (WHERE hop = 1 AND account = 'pound_keeper') AS feeding_received,
           sum(amount) FILTER (WHERE hop = 1 AND account = 'protest_deposit_held') AS protest_deposits,
           sum(amount) FILTER (WHERE hop = 1 AND account = 'pound_keeper_custody') AS security_received,
           sum(amount) FILTER (WHERE hop = 2 AND account = 'owner' AND section = '13(2)') AS security_refunded,
           sum(amount) FILTER (WHERE hop = 2 AND account = 'state_government' AND section = '13(2)') AS security_forfeited,
           sum(amount) FILTER (WHERE hop = 1 AND account = 'sale_officer') AS sale_expenses_deducted,
           sum(amount) FILTER (WHERE hop = 1 AND account = 'dm_deposit') AS surplus_to_dm,
           sum(amount) FILTER (WHERE account = 'local_fund') AS local_fund_due
    FROM fund_movements WHERE pound_id IS NOT NULL
    GROUP BY ALL
),
sold AS (
    SELECT pound_id, CAST(date_trunc('month', sale_on) AS DATE) AS month_start, sum(sale_proceeds) AS sale_proceeds
    FROM sale_attempt_accounts GROUP BY ALL
),
attempts AS (
    SELECT pound_id, CAST(date_trunc('month', sale_on) AS DATE) AS month_start, sum(sale_expenses) AS sale_expenses_incurred
    FROM int_sales GROUP BY ALL
),
ledger AS (
    SELECT c.pound_id, CAST(date_trunc('month', l.entry_on) AS DATE) AS month_start, sum(l.amount) AS local_fund_ledger
    FROM stg_local_fund l JOIN int_cases c ON c.case_ref = l.case_ref
    GROUP BY ALL
),
found AS (
    SELECT pound_id, CAST(date_trunc('month', event_on) AS DATE) AS month_start, count(*) AS findings,
           count(*) FILTER (WHERE severity = 'high') AS findings_high
    FROM findings WHERE pound_id IS NOT NULL GROUP BY ALL
)
SELECT month_of(h.month_start) AS month, h.pound_id, h.local_authority_id, h.taluk, h.district,
       h.heads_start, h.heads_impounded, h.heads_released, h.heads_sold, h.heads_end,
       h.heads_start + h.heads_impounded - h.heads_released - h.heads_sold - h.heads_disposed - h.heads_end AS heads_check,
       h.cases_in AS cases_impounded,
       coalesce(m.fines_received, 0) AS fines_received,
       coalesce(m.feeding_received, 0) AS feeding_received,
       coalesce(m.protest_deposits, 0) AS protest_deposits,
       coalesce(m.security_received, 0) AS security_received,
       coalesce(m.security_refunded, 0) AS security_refunded,
       coalesce(m.security_forfeited, 0) AS security_forfeited,
       coalesce(s.sale_proceeds, 0) AS sale_proceeds,
       coalesce(a.sale_expenses_incurred, 0) AS sale_expenses_incurred,
       coalesce(m.sale_expenses_deducted, 0) AS sale_expenses_deducted,
       coalesce(m.surplus_to_dm, 0) AS surplus_to_dm,
       coalesce(m.local_fund_due, 0) AS local_fund_due,
       coalesce(l.local_fund_ledger, 0) AS local_fund_ledger,
       coalesce(f.findings, 0) AS findings,
       coalesce(f.findings_high, 0) AS findings_high,
       h.pound_name,
       h.heads_impounded + h.heads_released + h.heads_sold + h.heads_disposed AS heads_moved,
       h.heads_start + h.heads_impounded - h.heads_released - h.heads_sold - h.heads_disposed = h.heads_end AS rollforward_ties,
       h.heads_disposed, h.heads_reseized
FROM heads h
LEFT JOIN money m ON m.pound_id = h.pound_id AND m.month_start = h.month_start
LEFT JOIN sold s ON s.pound_id = h.pound_id AND s.month_start = h.month_start
LEFT JOIN attempts a ON a.pound_id = h.pound_id AND a.month_start = h.month_start
LEFT JOIN ledger l ON l.pound_id = h.pound_id AND l.month_start = h.month_start
LEFT JOIN found f ON f.pound_id = h.pound_id AND f.month_start = h.month_start
ORDER BY month, pound_id
