-- made as: view of the build
-- stg_local_fund: the local funds' ledger entries made by as_of; the reference trimmed, and case_ref:
-- the reference as the models compare it (macros.sql), the one column a reference is matched by.
-- A view of the build: its three readers compute it again (a state's build wrote its million
-- rows in about 1 s); ledger_entries holds every entry for the commands after the build.
SELECT * REPLACE (trim(reference) AS reference), case_ref(reference) AS case_ref FROM current_local_fund() local_fund
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_local_fund(local_fund) <= as_of()
