-- corrections: one row per field a correction changed (the auditors' trail of the registers).
-- A version of a row is compared with the version before it: every field whose value differs is a
-- line (was, now). A row struck out is one line, field `void`, was no, now yes; a row restored is
-- the line void yes -> no with any field that changed. Amounts are written in rupees, flags yes/no.
-- event_month is the month of the row's own date (as corrected): the month whose figures it touches.
WITH v AS (
    SELECT *, lag(row_json) OVER (PARTITION BY register, key ORDER BY version) AS prev_json,
           lag(void) OVER (PARTITION BY register, key ORDER BY version) AS prev_void
    FROM stg_register_versions
),
changed AS (
    SELECT v.*, f.column_name AS field, f.kind, f.position,
           v.prev_json ->> f.column_name AS was_raw, v.row_json ->> f.column_name AS now_raw
    FROM v JOIN stg_register_columns f ON f.register = v.register
    WHERE v.prev_json IS NOT NULL AND f.column_name <> 'correction_note'
)
SELECT c.register, c.key, c.version, c.field,
       CASE WHEN c.kind = 'money' THEN rupees(CAST(c.was_raw AS BIGINT))
            WHEN c.kind = 'flag' THEN CASE WHEN CAST(c.was_raw AS BOOLEAN) THEN 'yes' ELSE 'no' END
            ELSE c.was_raw END AS was,
       CASE WHEN c.kind = 'money' THEN rupees(CAST(c.now_raw AS BIGINT))
            WHEN c.kind = 'flag' THEN CASE WHEN CAST(c.now_raw AS BOOLEAN) THEN 'yes' ELSE 'no' END
            ELSE c.now_raw END AS now,
       c.correction_note, c._file AS file, c._row AS row, l.loaded_at,
       month_of(c.event_on) AS event_month,
       -- beyond the export columns
       c.event_on, CAST(l.loaded_at AS DATE) AS loaded_on, c.position AS field_position,
       -- the district of the row: its case's, its local authority's, or its taluk's
       coalesce(k.district, la.district,
                (SELECT min(p.district) FROM stg_pounds p WHERE lower(p.taluk) = lower(c.row_json ->> 'taluk'))) AS district,
       -- the pound of the row: its case's (or its own), when it has one
       coalesce(k.pound_id, c.row_json ->> 'pound_id') AS pound_id,
       l.sha256 AS file_sha256,
       -- the local authority of the row: its case's, or its own (a ledger entry's)
       coalesce(k.local_authority_id, c.row_json ->> 'local_authority_id') AS local_authority_id
FROM changed c JOIN stg_loads l ON l.load_id = c._load_id
-- the case of the row: its case_id, or for a ledger entry the case its reference names
LEFT JOIN int_cases k ON k.case_ref = c.case_ref
LEFT JOIN stg_local_authorities la ON la.local_authority_id = c.row_json ->> 'local_authority_id'
WHERE c.was_raw IS DISTINCT FROM c.now_raw
  -- a row struck out is the one line that says so
  AND (NOT c.void OR c.prev_void OR c.field = 'void')
ORDER BY c.register, c.key, c.version, c.position
