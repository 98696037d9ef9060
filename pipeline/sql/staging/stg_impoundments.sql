-- made as: view of the build
-- stg_impoundments: the impoundments register as it stood on as_of.
-- Every computed table sees the registers "as of" the run's date: a row dated after
-- it is left out of these accounts (marts/rows_after_as_of counts it; DQ-FUTURE-DATE is
-- for a date after the row's load day or the bundle's own date). This and the other stg_ "as of" models are the only place that filters.
-- A register row may have been sent several times (corrections): each staging model reads
-- the current version of every key (the one loaded last) and leaves struck-out rows out.
-- case_ref: the case id as the models match a ledger's reference to it (macros.sql).
-- A view of the build: its three readers compute it again (a state's build wrote 960,000 rows
-- of it in about 1.3 s, and its readers take about 0.3 s longer reading the view). No command after
-- the build reads it; int_cases holds every case.
SELECT *, case_ref(case_id) AS case_ref FROM current_impoundments() impoundments
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_impoundments(impoundments) <= as_of()
