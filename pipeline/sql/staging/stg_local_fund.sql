-- stg_local_fund: the local funds' ledger entries made by as_of; case_ref: the reference as the
-- models compare it (macros.sql).
SELECT *, case_ref(reference) AS case_ref FROM local_fund
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM local_fund later WHERE later._version > 1 AND later.entry_id = local_fund.entry_id AND later._version > local_fund._version)
  AND NOT void AND entry_on <= as_of()
