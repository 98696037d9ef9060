-- stg_dm_deposit: the DM's deposit ledger entries made by as_of; case_ref: the reference as the
-- models compare it (macros.sql).
SELECT *, case_ref(reference) AS case_ref FROM dm_deposit
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM dm_deposit later WHERE later._version > 1 AND later.entry_id = dm_deposit.entry_id AND later._version > dm_deposit._version)
  AND NOT void AND entry_on <= as_of()
