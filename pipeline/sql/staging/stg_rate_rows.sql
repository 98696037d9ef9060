-- stg_rate_rows: rates.csv with prefixed column names, so that the macros that look a
-- rate up (security_rate()) can never confuse them with a caller's own columns.
SELECT animal_class AS r_class, lower(taluk) AS r_taluk, taluk AS r_taluk_written,
       effective_from AS r_from, effective_to AS r_to,
       fine_per_head AS r_fine, feeding_per_head_per_day AS r_feeding,
       coalesce(security_per_head, 0) AS r_security,
       _file || ' row ' || _row AS r_source
FROM rates
