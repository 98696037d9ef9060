-- made as: view of the build
-- stg_sales: the auction attempts of the sales register made by as_of (one row per attempt).
-- Blank expenses are "none incurred" (0).
-- A view of the build: int_sales holds every attempt for the commands after the build.
SELECT sale_id, case_id, path, sale_on, head_offered, head_sold, bid_amount, accepted,
       buyer_name, buyer_person_id, conducted_by,
       coalesce(sale_expenses, 0) AS sale_expenses,
       balance_paid, disposal_note,
       -- optional columns (fourth reading, R18, R19): a file without them leaves them blank
       owner_appeared_on, appeared_person, balance_paid_on, balance_receipt_signed,
       _file || ' row ' || _row AS source
FROM current_sales() sales
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_sales(sales) <= as_of()
