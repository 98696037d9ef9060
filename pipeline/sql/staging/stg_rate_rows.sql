-- stg_rate_rows: rates.csv with prefixed column names, for the macro security_rate()
-- (a named taluk wins over '*').
SELECT animal_class AS r_class, lower(taluk) AS r_taluk, effective_from AS r_from, effective_to AS r_to,
       coalesce(security_per_head, 0) AS r_security
FROM rates
