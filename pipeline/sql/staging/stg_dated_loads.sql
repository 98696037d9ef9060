-- made as: view
-- stg_dated_loads: the first version of each row of the registers and ledgers that carry a
-- month's figures, with the day that files it in a month, its pound or local authority, and
-- the load it came in (stg_loads has its file's sha256): a row dated in a closed month whose file the close did not
-- hold is a late entry (marts/adjustments.sql). Later versions are corrections, traced there.
WITH r AS (
    SELECT 'impoundments' AS register, case_id AS id, case_id, pound_id, NULL AS local_authority_id,
           impounded_on AS day, _file, _row, _load_id FROM impoundments WHERE _version = 1
    UNION ALL SELECT 'releases', release_id, case_id, NULL, NULL, released_on, _file, _row, _load_id
    FROM releases WHERE _version = 1
    UNION ALL SELECT 'sales', sale_id, case_id, NULL, NULL, sale_on, _file, _row, _load_id FROM sales WHERE _version = 1
    UNION ALL SELECT 'security_deposits', deposit_id, case_id, NULL, NULL, deposited_on, _file, _row, _load_id
    FROM security_deposits WHERE _version = 1
    UNION ALL SELECT 'local_fund', entry_id, NULL, NULL, local_authority_id, entry_on, _file, _row, _load_id
    FROM local_fund WHERE _version = 1
    UNION ALL SELECT 'dm_deposit', entry_id, NULL, NULL, local_authority_id, entry_on, _file, _row, _load_id
    FROM dm_deposit WHERE _version = 1
)
SELECT register, id, case_id, pound_id, local_authority_id, day, _file AS file, _row AS row, _load_id AS load_id
FROM r
