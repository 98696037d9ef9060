-- rule: DQ-FUTURE-DATE
-- section: —
-- severity: low
-- subject: the row
-- checks: A register or ledger row with a date after as_of (reference tables may legitimately look ahead).
-- reading: One finding per row, naming every date column after as_of; the latest such date is event_on.
WITH dated AS (
    SELECT 'impoundment' AS kind, case_id AS id, case_id, pound_id,
           [{'c': 'seized_on', 'd': seized_on}, {'c': 'impounded_on', 'd': impounded_on}] AS ds
    FROM impoundments
    UNION ALL
    SELECT 'release', release_id, case_id, NULL, [{'c': 'released_on', 'd': released_on}] FROM releases
    UNION ALL
    SELECT 'police_report', case_id, case_id, NULL,
           [{'c': 'reported_on', 'd': reported_on}, {'c': 'notice_on', 'd': notice_on},
            {'c': 'proclamation_on', 'd': proclamation_on}] FROM police_reports
    UNION ALL
    SELECT 'sale', sale_id, case_id, NULL, [{'c': 'sale_on', 'd': sale_on}] FROM sales
    UNION ALL
    SELECT 'complaint', case_id, case_id, NULL,
           [{'c': 'filed_on', 'd': filed_on}, {'c': 'decided_on', 'd': decided_on}] FROM complaints
    UNION ALL
    SELECT 'deposit', deposit_id, case_id, NULL,
           [{'c': 'deposited_on', 'd': deposited_on}, {'c': 'refund_applied_on', 'd': refund_applied_on},
            {'c': 'refunded_on', 'd': refunded_on}, {'c': 'forfeited_on', 'd': forfeited_on}] FROM security_deposits
    UNION ALL
    SELECT 'order', order_id, NULL, NULL,
           [{'c': 'issued_on', 'd': issued_on}, {'c': 'comply_by', 'd': comply_by}, {'c': 'complied_on', 'd': complied_on},
            {'c': 'police_removal_on', 'd': police_removal_on}, {'c': 'fine_paid_on', 'd': fine_paid_on}] FROM removal_orders
    UNION ALL
    SELECT 'local_fund_entry', entry_id, NULL, NULL, [{'c': 'entry_on', 'd': entry_on}] FROM local_fund
    UNION ALL
    SELECT 'dm_deposit_entry', entry_id, NULL, NULL, [{'c': 'entry_on', 'd': entry_on}] FROM dm_deposit
),
future AS (
    -- comply_by is a deadline, not an event: it may lie ahead.
    SELECT kind, id, case_id, pound_id,
           list_filter(ds, lambda x: x.d > as_of() AND x.c <> 'comply_by') AS late
    FROM dated
)
SELECT f.kind AS subject_kind, f.id AS subject_id, f.case_id, p.pound_id,
       p.local_authority_id,
       list_max(list_transform(f.late, lambda x: x.d)) AS event_on,
       'The ' || replace(f.kind, '_', ' ') || ' ' || f.id || ' is dated after the as-of date ' || as_of() || ': '
       || array_to_string(list_transform(f.late, lambda x: x.c || ' ' || x.d), ', ') || '.' AS detail
FROM future f
-- the raw registers: a case impounded after as_of is not among the cases of the accounts
LEFT JOIN impoundments i ON i.case_id = f.case_id
LEFT JOIN pounds p ON p.pound_id = coalesce(f.pound_id, i.pound_id)
WHERE len(f.late) > 0
