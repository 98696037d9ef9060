-- stg_removal_orders: s.14 orders issued by as_of, with compliance, police removal and the
-- fine's payment only if recorded by then (comply_by is a deadline and is kept).
SELECT order_id, taluk, owner_id, owner_name, clause, owner_head_count, head_count, issued_on, comply_by,
       CASE WHEN complied_on <= as_of() THEN complied_on END AS complied_on,
       CASE WHEN police_removal_on <= as_of() THEN police_removal_on END AS police_removal_on,
       fine_imposed,
       CASE WHEN fine_paid_on <= as_of() THEN fine_paid_on END AS fine_paid_on,
       _file, _row
FROM current_removal_orders() removal_orders
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_removal_orders(removal_orders) <= as_of()
