-- rows_after_as_of: the rows in force of each register and ledger dated after the as-of date, which
-- the accounts drawn up to it leave out (every staging model stops at as_of by the row's own date).
-- One row per register that has any: the register and how many of its rows were left out.
SELECT CASE kind WHEN 'impoundment' THEN 'impoundments' WHEN 'release' THEN 'releases'
                 WHEN 'police_report' THEN 'police_reports'
                 WHEN 'sale' THEN 'sales' WHEN 'complaint' THEN 'complaints'
                 WHEN 'deposit' THEN 'security_deposits' WHEN 'order' THEN 'removal_orders'
                 WHEN 'local_fund_entry' THEN 'local_fund' WHEN 'dm_deposit_entry' THEN 'dm_deposit' END AS register,
       count(*) AS rows_left_out
FROM stg_dated_rows
WHERE day > as_of()
GROUP BY ALL
ORDER BY register
