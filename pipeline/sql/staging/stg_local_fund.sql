-- stg_local_fund: the local funds' ledger entries made by as_of.
SELECT * FROM local_fund WHERE entry_on <= as_of()
