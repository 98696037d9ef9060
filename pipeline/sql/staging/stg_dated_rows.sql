-- made as: view
-- stg_dated_rows: every row in force of every register and ledger (the current version of
-- each key, not struck out) with its dates, whatever they are:
-- unlike the other staging models this one does not stop at as_of: DQ-FUTURE-DATE compares the
-- dates with the day the row was loaded, and marts/rows_after_as_of counts the rows the accounts
-- leave out. One row per register row: its kind, id, case, pound (for an impoundment), local
-- authority (for a ledger entry), the load it came in, the day that files it in a month (`day`: its
-- own date, own_day_<table>(), as REGISTERS declares it and stg_register_versions reads it; a police
-- report's is the first of its report, notice and proclamation) and a list of (column, date). The current version of a key: current_<table>() (load/schema.py).
-- A view: its two readers (rows_after_as_of, DQ-FUTURE-DATE) each read a little of it, and
-- writing 3.6 million lists of dates at state scale took 5-7 s of the build, reading it 0.6 s.
SELECT 'impoundment' AS kind, case_id AS id, case_id, pound_id, NULL AS local_authority_id, _load_id AS load_id, own_day_impoundments(impoundments) AS day,
       [{'c': 'seized_on', 'd': seized_on}, {'c': 'impounded_on', 'd': impounded_on}] AS ds
FROM current_impoundments() impoundments
    WHERE NOT void
UNION ALL
SELECT 'release', release_id, case_id, NULL, NULL, _load_id, own_day_releases(releases), [{'c': 'released_on', 'd': released_on}] FROM current_releases() releases
    WHERE NOT void
UNION ALL
SELECT 'police_report', case_id, case_id, NULL, NULL, _load_id, own_day_police_reports(police_reports),
       [{'c': 'reported_on', 'd': reported_on}, {'c': 'notice_on', 'd': notice_on},
        {'c': 'proclamation_on', 'd': proclamation_on}] FROM current_police_reports() police_reports
    WHERE NOT void
UNION ALL
SELECT 'sale', sale_id, case_id, NULL, NULL, _load_id, own_day_sales(sales), [{'c': 'sale_on', 'd': sale_on}] FROM current_sales() sales
    WHERE NOT void
UNION ALL
SELECT 'complaint', case_id, case_id, NULL, NULL, _load_id, own_day_complaints(complaints),
       [{'c': 'filed_on', 'd': filed_on}, {'c': 'decided_on', 'd': decided_on}] FROM current_complaints() complaints
    WHERE NOT void
UNION ALL
SELECT 'deposit', deposit_id, case_id, NULL, NULL, _load_id, own_day_security_deposits(security_deposits),
       [{'c': 'deposited_on', 'd': deposited_on}, {'c': 'refund_applied_on', 'd': refund_applied_on},
        {'c': 'refunded_on', 'd': refunded_on}, {'c': 'forfeited_on', 'd': forfeited_on}] FROM current_security_deposits() security_deposits
    WHERE NOT void
UNION ALL
SELECT 'order', order_id, NULL, NULL, NULL, _load_id, own_day_removal_orders(removal_orders),
       [{'c': 'issued_on', 'd': issued_on}, {'c': 'comply_by', 'd': comply_by}, {'c': 'complied_on', 'd': complied_on},
        {'c': 'police_removal_on', 'd': police_removal_on}, {'c': 'fine_paid_on', 'd': fine_paid_on}] FROM current_removal_orders() removal_orders
    WHERE NOT void
UNION ALL
SELECT 'local_fund_entry', entry_id, NULL, NULL, local_authority_id, _load_id, own_day_local_fund(local_fund), [{'c': 'entry_on', 'd': entry_on}] FROM current_local_fund() local_fund
    WHERE NOT void
UNION ALL
SELECT 'dm_deposit_entry', entry_id, NULL, NULL, local_authority_id, _load_id, own_day_dm_deposit(dm_deposit), [{'c': 'entry_on', 'd': entry_on}] FROM current_dm_deposit() dm_deposit
    WHERE NOT void
