-- rule: DQ-FUTURE-DATE
-- section: —
-- severity: low
-- subject: the row
-- checks: A register or ledger row with a date after as_of (reference tables may legitimately look ahead).
-- reading: One finding per row, naming every date column after as_of; the latest such date is event_on.
WITH future AS (
    -- comply_by is a deadline, not an event: it may lie ahead.
    SELECT kind, id, case_id, pound_id,
           list_filter(ds, lambda x: x.d > as_of() AND x.c <> 'comply_by') AS late
    FROM stg_dated_rows
),
case_pounds AS (
    -- a case impounded after as_of is not among the cases of the accounts: its pound is the register's
    SELECT case_id, pound_id FROM stg_dated_rows WHERE kind = 'impoundment'
)
SELECT f.kind AS subject_kind, f.id AS subject_id, f.case_id, p.pound_id,
       p.local_authority_id,
       list_max(list_transform(f.late, lambda x: x.d)) AS event_on,
       'The ' || replace(f.kind, '_', ' ') || ' ' || f.id || ' is dated after the as-of date ' || as_of() || ': '
       || array_to_string(list_transform(f.late, lambda x: x.c || ' ' || x.d), ', ') || '.' AS detail
FROM future f
LEFT JOIN case_pounds c ON c.case_id = f.case_id
LEFT JOIN stg_pounds p ON p.pound_id = coalesce(f.pound_id, c.pound_id)
WHERE len(f.late) > 0
