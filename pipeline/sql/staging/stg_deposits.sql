-- stg_deposits: s.13 deposits made by as_of, with a refund or forfeiture only if recorded by then.
SELECT deposit_id, case_id, owner_id, deposited_on, amount,
       CASE WHEN refund_applied_on <= as_of() THEN refund_applied_on END AS refund_applied_on,
       CASE WHEN refunded_on <= as_of() THEN refunded_on END AS refunded_on,
       CASE WHEN refunded_on <= as_of() THEN refunded_amount END AS refunded_amount,
       CASE WHEN forfeited_on <= as_of() THEN forfeited_on END AS forfeited_on,
       CASE WHEN forfeited_on <= as_of() THEN forfeited_amount END AS forfeited_amount,
       sale_id,
       _file, _row
FROM current_security_deposits() security_deposits
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_security_deposits(security_deposits) <= as_of()
