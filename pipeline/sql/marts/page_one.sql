-- page_one: the figures of page 1 of the monthly review (the page the District Magistrate signs,
-- reports/glance.py) that count what waits (R14), defined once: page 1 reads its row on the accounts'
-- as-of date, and marts/adjustments the row of each close in force on that close's own as-of date, to
-- set against what the close sealed (stg_closed_page). One row per as-of day, month and district:
--   as_of          the day the days waited and the credits overdue are counted on: the accounts' as-of
--                  date, for every month from the first month of a finding, a credit or a close to the
--                  month after the last (at least the as-of month), and every district; and the as-of date
--                  of each close in force, for its month and district only
--   month          the month the page is of
--   until_month    the last month whose page shows the row: the month itself, but '9999-12' for the month
--                  after the last month of a finding, a credit or a close, whose figures are every later
--                  month's too (nothing is filed under them); a page reads month <= its month <= until_month
--   district       a district, or 'all' for every district (as a close of all districts is named); a
--                  finding or credit placed in no district counts in 'all' only
--   waiting_high, waiting_medium, waiting_low
--                  the findings waiting for a decision (review_status open, or reopened by a correction)
--                  of the month and every month before it, by severity
--   oldest_days    the days the oldest of them has waited on as_of, from its event (findings.days_open
--                  on the accounts' as-of date); 0 when none waits
--   of_month_high, of_month_medium, of_month_low
--                  of them, those of the month itself
--   overdue_credits  the credits and receipts overdue on as_of (credit_arrivals: the local fund's credits,
--                  R16, and the DM's receipts, R17; not credited in full by overdue_on, counted from the
--                  day after it) filed under the month or a month before it (the month of overdue_on)
--   overdue_money  what of them is not credited or received (paise)
-- Before the first month there is no row: nothing waits and nothing is overdue there.
-- Each month counts the months before it by a running sum over the months (findings) or the days a
-- credit falls overdue after (credits), never a join of every finding with every month.
WITH closes AS (
    SELECT as_of, month, coalesce(district, 'all') AS district FROM stg_closes WHERE in_force
),
waiting_rows AS (
    SELECT district, month, severity, event_on FROM findings
    WHERE review_status IN ('open', 'reopened') AND district IS NOT NULL
    UNION ALL
    SELECT 'all', month, severity, event_on FROM findings WHERE review_status IN ('open', 'reopened')
),
waiting_of_month AS (
    SELECT district, month,
           count(*) FILTER (WHERE severity = 'high') AS high,
           count(*) FILTER (WHERE severity = 'medium') AS medium,
           count(*) FILTER (WHERE severity = 'low') AS low,
           min(event_on) AS first_event
    FROM waiting_rows GROUP BY district, month
),
bounds AS (
    SELECT min(month) AS first_month, max(month) AS last_month
    FROM (SELECT month FROM findings UNION ALL SELECT month FROM credit_arrivals
          UNION ALL SELECT month FROM closes UNION ALL SELECT month_of(as_of()))
),
months AS (
    SELECT month_of(unnest(generate_series(CAST(first_month || '-01' AS DATE),
                                           CAST(last_month || '-01' AS DATE) + INTERVAL 1 MONTH,
                                           INTERVAL 1 MONTH))) AS month
    FROM bounds
),
districts AS (
    SELECT district FROM findings UNION SELECT district FROM credit_arrivals UNION SELECT district FROM stg_pounds
    UNION SELECT district FROM closes UNION SELECT 'all'
),
grid AS (
    SELECT m.month, d.district FROM months m CROSS JOIN districts d WHERE d.district IS NOT NULL
),
waiting AS (
    SELECT g.month, g.district,
           CAST(sum(coalesce(w.high, 0)) OVER through AS BIGINT) AS waiting_high,
           CAST(sum(coalesce(w.medium, 0)) OVER through AS BIGINT) AS waiting_medium,
           CAST(sum(coalesce(w.low, 0)) OVER through AS BIGINT) AS waiting_low,
           min(w.first_event) OVER through AS first_event,
           coalesce(w.high, 0) AS of_month_high, coalesce(w.medium, 0) AS of_month_medium,
           coalesce(w.low, 0) AS of_month_low
    FROM grid g LEFT JOIN waiting_of_month w ON w.month = g.month AND w.district = g.district
    WINDOW through AS (PARTITION BY g.district ORDER BY g.month ROWS UNBOUNDED PRECEDING)
),
-- a credit counts on as_of when overdue_on < as_of (credit_arrivals.overdue) and its month is the month
-- or before (overdue_on before the next month's first day): overdue_on before the earlier of the two
overdue_rows AS (
    SELECT district, overdue_on, not_credited FROM credit_arrivals
    WHERE not_credited > 0 AND overdue_on IS NOT NULL AND district IS NOT NULL
    UNION ALL
    SELECT 'all', overdue_on, not_credited FROM credit_arrivals WHERE not_credited > 0 AND overdue_on IS NOT NULL
),
overdue_by_day AS (
    SELECT district, overdue_on, count(*) AS credits, sum(not_credited) AS money
    FROM overdue_rows GROUP BY district, overdue_on
),
overdue_running AS (
    SELECT district, overdue_on,
           CAST(sum(credits) OVER since AS BIGINT) AS credits, CAST(sum(money) OVER since AS BIGINT) AS money
    FROM overdue_by_day
    WINDOW since AS (PARTITION BY district ORDER BY overdue_on ROWS UNBOUNDED PRECEDING)
),
asked AS (
    SELECT as_of() AS as_of, month, district FROM grid
    UNION
    SELECT as_of, month, district FROM closes
),
cut AS (
    SELECT as_of, month, district,
           least(as_of, CAST(CAST(month || '-01' AS DATE) + INTERVAL 1 MONTH AS DATE)) AS overdue_before
    FROM asked
)
SELECT a.as_of, a.month,
       CASE WHEN a.month = (SELECT max(month) FROM months) THEN '9999-12' ELSE a.month END AS until_month,
       a.district,
       w.waiting_high, w.waiting_medium, w.waiting_low,
       coalesce(CAST(a.as_of - w.first_event AS BIGINT), 0) AS oldest_days,
       w.of_month_high, w.of_month_medium, w.of_month_low,
       coalesce(o.credits, 0) AS overdue_credits, coalesce(o.money, 0) AS overdue_money
FROM cut a
JOIN waiting w ON w.month = a.month AND w.district = a.district
ASOF LEFT JOIN overdue_running o ON o.district = a.district AND a.overdue_before > o.overdue_on
ORDER BY a.as_of, a.month, a.district
