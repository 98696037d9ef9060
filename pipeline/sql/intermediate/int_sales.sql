-- int_sales: one row per auction attempt (s.15(3), s.17), with its case.
-- A rejected bid (accepted = no) sells nothing; its expenses still count.
-- A disposal after a rejected bid (path s15_disposal, the s.15(3) proviso: "may dispose of the
-- cattle in such manner as he thinks fit") is accepted whatever the cell says: its heads leave the
-- pound and what it brought (bid_amount, which may be 0) goes through the s.15 waterfall (R5).
WITH s AS (
    SELECT * REPLACE (s.accepted OR s.path = 's15_disposal' AS accepted) FROM stg_sales s
)
SELECT
    s.sale_id, s.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district, c.animal_class,
    c.impounded_on, c.w, s.path, s.sale_on, s.head_offered,
    CASE WHEN s.accepted THEN coalesce(s.head_sold, 0) ELSE 0 END AS head_sold,
    CASE WHEN s.accepted THEN coalesce(s.bid_amount, 0) ELSE 0 END AS proceeds,
    coalesce(s.bid_amount, 0) AS bid_amount,
    s.accepted, s.buyer_name, s.buyer_person_id, s.conducted_by,
    s.sale_expenses, s.balance_paid, s.disposal_note,
    s.source
FROM s JOIN int_cases c USING (case_id)
