-- month_closes: every close of a month (pound close), the one in force marked, for the reports'
-- parameters block; district 'all' for a close of every district.
SELECT month, coalesce(district, 'all') AS district, closed_by, closed_at, CAST(closed_at AS DATE) AS closed_on,
       note, reopen, folder, in_force,
       count(*) OVER (PARTITION BY month, coalesce(district, '')) AS closes_of_month
FROM stg_closes
ORDER BY month, district, closed_at
