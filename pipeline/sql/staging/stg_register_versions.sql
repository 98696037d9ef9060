-- stg_register_versions: every version of every row of the registers and ledgers, the original
-- (version 1) and each correction or striking out sent after it, with the row as JSON, its note,
-- the file and row it came from and its own date (impounded_on, released_on, sale_on, entry_on ...).
SELECT 'impoundments' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, impounded_on AS event_on
FROM impoundments r
UNION ALL
SELECT 'security_deposits' AS register, CAST(deposit_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, deposited_on AS event_on
FROM security_deposits r
UNION ALL
SELECT 'releases' AS register, CAST(release_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, released_on AS event_on
FROM releases r
UNION ALL
SELECT 'police_reports' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, coalesce(reported_on, notice_on, proclamation_on) AS event_on
FROM police_reports r
UNION ALL
SELECT 'sales' AS register, CAST(sale_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, sale_on AS event_on
FROM sales r
UNION ALL
SELECT 'complaints' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, filed_on AS event_on
FROM complaints r
UNION ALL
SELECT 'removal_orders' AS register, CAST(order_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, issued_on AS event_on
FROM removal_orders r
UNION ALL
SELECT 'local_fund' AS register, CAST(entry_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, entry_on AS event_on
FROM local_fund r
UNION ALL
SELECT 'dm_deposit' AS register, CAST(entry_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, entry_on AS event_on
FROM dm_deposit r
UNION ALL
SELECT 'finding_reviews' AS register, CAST(rule_id AS VARCHAR) || ' / ' || CAST(subject_id AS VARCHAR) || ' / ' || CAST(reviewed_on AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, reviewed_on AS event_on
FROM finding_reviews r
