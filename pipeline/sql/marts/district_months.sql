-- district_months: one row per month and district: whether anything happened in it (cattle
-- in a pound or moving, money falling due, findings). A report of a month with nothing in it
-- says so.
WITH heads AS (
    SELECT month, district, sum(heads_start + heads_impounded + heads_released + heads_sold + heads_end) AS heads
    FROM monthly_accounts GROUP BY ALL
),
moves AS (SELECT month, district, count(*) AS movements FROM fund_movements GROUP BY ALL),
found AS (SELECT month, district, count(*) AS findings FROM findings GROUP BY ALL)
SELECT month, district,
       coalesce(h.heads, 0) AS heads, coalesce(m.movements, 0) AS movements, coalesce(f.findings, 0) AS findings,
       coalesce(h.heads, 0) + coalesce(m.movements, 0) + coalesce(f.findings, 0) > 0 AS active
FROM heads h FULL JOIN moves m USING (month, district) FULL JOIN found f USING (month, district)
ORDER BY month, district
