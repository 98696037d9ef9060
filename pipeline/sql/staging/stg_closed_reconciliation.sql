-- stg_closed_reconciliation: the reconciliation rows of the month a close sealed (those due in it,
-- and entries nothing was due for made in it), by key, with the difference (ledger - expected) then.
-- case_ref: the reference as the models compare it (macros.sql).
SELECT close_id, ledger, local_authority_id, reference, head, difference, district, case_ref(reference) AS case_ref
FROM closed_reconciliation
