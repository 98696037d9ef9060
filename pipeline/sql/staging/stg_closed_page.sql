-- stg_closed_page: the figures of page 1 a close sealed (close.json `signed`, the page the District
-- Magistrate signs) that marts/adjustments compares again (R14): the findings waiting by severity, of
-- the month and the months before it and of the month itself, the days the oldest has waited, and the
-- credits and receipts overdue with the money not credited (paise). One row per close and figure,
-- by the measure id page 1 gives it (pipeline/reports/glance.py; a close sealed before the ids is read
-- by its labels in pipeline/core/page_measures.py), the id adjustments names it by; page 1's other
-- figures (heads, money received) are the monthly_accounts measures, compared as such, and a close
-- made before page 1 was sealed has no rows.
SELECT close_id, measure, value
FROM closed_page
WHERE starts_with(measure, 'page1_')
