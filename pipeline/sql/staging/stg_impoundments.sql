-- stg_impoundments: the impoundments register as it stood on as_of.
-- Every computed table sees the registers "as of" the run's date: a row dated after
-- it has not happened yet (it is reported as DQ-FUTURE-DATE, which reads the raw
-- registers). This and the other stg_ "as of" models are the only place that filters.
SELECT * FROM impoundments WHERE impounded_on <= as_of()
