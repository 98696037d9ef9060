-- stg_closed_page: the figures of page 1 a close sealed (close.json `signed`, the page the District
-- Magistrate signs) that marts/adjustments compares again (R14): the findings waiting by severity, of
-- the month and the months before it and of the month itself, the days the oldest has waited, and the
-- credits and receipts overdue with the money not credited (paise). One row per close and figure,
-- under the measure adjustments names it by; page 1's other figures (heads, money received) are the
-- monthly_accounts measures, compared as such, and a close made before page 1 was sealed has no rows.
WITH labels(label, measure) AS (
    VALUES ('findings waiting up to the month, high', 'page1_waiting_high'),
           ('findings waiting up to the month, medium', 'page1_waiting_medium'),
           ('findings waiting up to the month, low', 'page1_waiting_low'),
           ('days the oldest has waited', 'page1_oldest_days'),
           ('of them of the month itself, high', 'page1_of_month_high'),
           ('of them of the month itself, medium', 'page1_of_month_medium'),
           ('of them of the month itself, low', 'page1_of_month_low'),
           ('credits and receipts overdue', 'page1_overdue_credits'),
           ('money overdue, not credited (Rs)', 'page1_overdue_money')
)
SELECT p.close_id, l.measure, p.value FROM closed_page p JOIN labels l USING (label)
