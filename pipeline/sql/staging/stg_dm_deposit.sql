-- stg_dm_deposit: the DM's deposit ledger entries made by as_of.
SELECT * FROM dm_deposit
QUALIFY _version = max(_version) OVER (PARTITION BY entry_id) AND NOT void AND entry_on <= as_of()
