-- stg_police_reports: the s.15 report, notice and proclamations (in the village or area, and at the
-- market place), each only if made by as_of.
SELECT case_id,
       CASE WHEN reported_on <= as_of() THEN reported_on END AS reported_on, reported_to,
       CASE WHEN notice_on <= as_of() THEN notice_on END AS notice_on,
       CASE WHEN proclamation_on <= as_of() THEN proclamation_on END AS proclamation_on,
       -- the proclamation at the market place (R25); a file without the column gave it proclamation_on
       CASE WHEN market_proclamation_on <= as_of() THEN market_proclamation_on END AS market_proclamation_on,
       _file, _row
FROM current_police_reports() police_reports
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void
