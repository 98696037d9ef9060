-- stg_dm_deposit: the DM's deposit ledger entries made by as_of.
SELECT * FROM dm_deposit WHERE entry_on <= as_of()
