-- stg_closed_reconciliation: the reconciliation rows of the month a close sealed (those due in it,
-- and entries nothing was due for made in it), by key, with the difference (ledger - expected) then.
SELECT close_id, ledger, local_authority_id, reference, head, difference, district FROM closed_reconciliation
