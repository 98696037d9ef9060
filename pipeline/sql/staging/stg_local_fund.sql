-- stg_local_fund: the local funds' ledger entries made by as_of.
SELECT * FROM local_fund
QUALIFY _version = max(_version) OVER (PARTITION BY entry_id) AND NOT void AND entry_on <= as_of()
