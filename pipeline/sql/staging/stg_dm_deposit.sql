-- stg_dm_deposit: the DM's deposit ledger entries made by as_of; the reference trimmed, and case_ref:
-- the reference as the models compare it (macros.sql), the one column a reference is matched by.
SELECT * REPLACE (trim(reference) AS reference), case_ref(reference) AS case_ref FROM current_dm_deposit() dm_deposit
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_dm_deposit(dm_deposit) <= as_of()
