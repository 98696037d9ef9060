-- rule: DQ-FUTURE-DATE
-- section: —
-- severity: low
-- subject: the row
-- checks: A register or ledger row with a date that could not yet have happened: after the day its
--   file was loaded, or after the bundle's own date (bundle.toml as_of) when it gives one (reference
--   tables may legitimately look ahead). A row merely after the chosen as-of date is no finding: the
--   accounts leave it out and say how many (marts/rows_after_as_of).
-- reading: One finding per row, naming every date column after that day; the row's own date (the one
--   that files it in a month) is event_on, or the latest such date when the row has none.
WITH dated AS (
    SELECT d.*, CAST(l.loaded_at AS DATE) AS loaded_on, l.bundle_as_of,
           least(CAST(l.loaded_at AS DATE), coalesce(l.bundle_as_of, CAST(l.loaded_at AS DATE))) AS known_by
    FROM stg_dated_rows d
    LEFT JOIN stg_loads l ON l.load_id = d.load_id
),
future AS (
    -- comply_by is a deadline, not an event: it may lie ahead.
    SELECT *, list_filter(ds, lambda x: x.d > known_by AND x.c <> 'comply_by') AS late
    FROM dated
),
case_pounds AS (
    -- a case impounded after as_of is not among the cases of the accounts: its pound is the register's
    -- (the impoundments of stg_dated_rows, read from the register: the view is a union of nine)
    SELECT case_id, pound_id FROM current_impoundments() WHERE NOT void
)
SELECT f.kind AS subject_kind, f.id AS subject_id, f.case_id, p.pound_id,
       p.local_authority_id,
       coalesce(f.day, list_max(list_transform(f.late, lambda x: x.d))) AS event_on,
       'The ' || replace(f.kind, '_', ' ') || ' ' || f.id || ' is dated after '
       || CASE WHEN f.bundle_as_of < f.loaded_on THEN 'the bundle''s own date (bundle.toml) ' || day_text(f.bundle_as_of)
               ELSE 'the day its file was loaded, ' || day_text(f.loaded_on) END
       || ', so it could not yet have happened: '
       || array_to_string(list_transform(f.late, lambda x: x.c || ' ' || day_text(x.d)), ', ') || '.' AS detail
FROM future f
LEFT JOIN case_pounds c ON c.case_id = f.case_id
LEFT JOIN stg_pounds p ON p.pound_id = coalesce(f.pound_id, c.pound_id)
WHERE len(f.late) > 0
