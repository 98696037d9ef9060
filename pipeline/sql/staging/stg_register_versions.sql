-- stg_register_versions: every version of every row of the registers and ledgers that has been
-- corrected or struck out: the original (version 1) and each correction or striking out sent
-- after it, with the row as JSON, its note, the file and row it came from and its own date (event_on:
-- own_day_<table>(), the date REGISTERS declares, load/schema.py current_macros()).
-- case_ref: the case the row names (its case_id, or a ledger entry's reference) as the models
-- compare it (macros.sql).
-- A table: two models read it (corrections, int_finding_reviews), and it holds only the rows
-- that were corrected or struck out.
SELECT *, case_ref(coalesce(row_json ->> 'case_id', row_json ->> 'reference')) AS case_ref FROM (
SELECT 'impoundments' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_impoundments(r) AS event_on
FROM impoundments r
WHERE (case_id) IN (SELECT (case_id) FROM impoundments WHERE _version > 1)
UNION ALL
SELECT 'security_deposits' AS register, CAST(deposit_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_security_deposits(r) AS event_on
FROM security_deposits r
WHERE (deposit_id) IN (SELECT (deposit_id) FROM security_deposits WHERE _version > 1)
UNION ALL
SELECT 'releases' AS register, CAST(release_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_releases(r) AS event_on
FROM releases r
WHERE (release_id) IN (SELECT (release_id) FROM releases WHERE _version > 1)
UNION ALL
SELECT 'police_reports' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_police_reports(r) AS event_on
FROM police_reports r
WHERE (case_id) IN (SELECT (case_id) FROM police_reports WHERE _version > 1)
UNION ALL
SELECT 'sales' AS register, CAST(sale_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_sales(r) AS event_on
FROM sales r
WHERE (sale_id) IN (SELECT (sale_id) FROM sales WHERE _version > 1)
UNION ALL
SELECT 'complaints' AS register, CAST(case_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_complaints(r) AS event_on
FROM complaints r
WHERE (case_id) IN (SELECT (case_id) FROM complaints WHERE _version > 1)
UNION ALL
SELECT 'removal_orders' AS register, CAST(order_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_removal_orders(r) AS event_on
FROM removal_orders r
WHERE (order_id) IN (SELECT (order_id) FROM removal_orders WHERE _version > 1)
UNION ALL
SELECT 'local_fund' AS register, CAST(entry_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_local_fund(r) AS event_on
FROM local_fund r
WHERE (entry_id) IN (SELECT (entry_id) FROM local_fund WHERE _version > 1)
UNION ALL
SELECT 'dm_deposit' AS register, CAST(entry_id AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_dm_deposit(r) AS event_on
FROM dm_deposit r
WHERE (entry_id) IN (SELECT (entry_id) FROM dm_deposit WHERE _version > 1)
UNION ALL
SELECT 'finding_reviews' AS register, CAST(rule_id AS VARCHAR) || ' / ' || CAST(subject_id AS VARCHAR) || ' / ' || CAST(reviewed_on AS VARCHAR) AS key, _version AS version, to_json(r) AS row_json,
       correction_note, void, _file, _row, _load_id, own_day_finding_reviews(r) AS event_on
FROM finding_reviews r
WHERE (rule_id, subject_id, reviewed_on) IN (SELECT (rule_id, subject_id, reviewed_on) FROM finding_reviews WHERE _version > 1)
)
