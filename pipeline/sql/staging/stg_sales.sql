-- stg_sales: the auction attempts of the sales register made by as_of (one row per attempt).
-- Blank expenses are "none incurred" (0).
SELECT sale_id, case_id, path, sale_on, head_offered, head_sold, bid_amount, accepted,
       buyer_name, buyer_person_id, conducted_by,
       coalesce(sale_expenses, 0) AS sale_expenses,
       balance_paid, disposal_note,
       _file || ' row ' || _row AS source
FROM sales
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM sales later WHERE later._version > 1 AND later.sale_id = sales.sale_id AND later._version > sales._version)
  AND NOT void AND sale_on <= as_of()
