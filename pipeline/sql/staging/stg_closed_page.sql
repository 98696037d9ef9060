-- stg_closed_page: the figures of page 1 a close sealed (close.json `signed`, the page the District
-- Magistrate signs) that marts/adjustments compares again (R14): the findings waiting by severity, of
-- the month and the months before it and of the month itself, the days the oldest has waited, and the
-- credits and receipts overdue with the money not credited (paise). One row per close and figure,
-- under the measure adjustments names it by; page 1's other figures (heads, money received) are the
-- monthly_accounts measures, compared as such, and a close made before page 1 was sealed has no rows.
SELECT * FROM (
    SELECT close_id,
           CASE label
               WHEN 'findings waiting up to the month, high' THEN 'page1_waiting_high'
               WHEN 'findings waiting up to the month, medium' THEN 'page1_waiting_medium'
               WHEN 'findings waiting up to the month, low' THEN 'page1_waiting_low'
               WHEN 'days the oldest has waited' THEN 'page1_oldest_days'
               WHEN 'of them of the month itself, high' THEN 'page1_of_month_high'
               WHEN 'of them of the month itself, medium' THEN 'page1_of_month_medium'
               WHEN 'of them of the month itself, low' THEN 'page1_of_month_low'
               WHEN 'credits and receipts overdue' THEN 'page1_overdue_credits'
               WHEN 'money overdue, not credited (Rs)' THEN 'page1_overdue_money'
           END AS measure,
           value
    FROM closed_page
) WHERE measure IS NOT NULL
