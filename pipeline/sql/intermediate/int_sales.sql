-- int_sales: one row per auction attempt (s.15(3), s.17), with its case.
-- A rejected bid (accepted = no) sells nothing; its expenses still count.
SELECT
    s.sale_id, s.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district, c.animal_class,
    c.impounded_on, c.w, s.path, s.sale_on, s.head_offered,
    CASE WHEN s.accepted THEN coalesce(s.head_sold, 0) ELSE 0 END AS head_sold,
    CASE WHEN s.accepted THEN coalesce(s.bid_amount, 0) ELSE 0 END AS proceeds,
    coalesce(s.bid_amount, 0) AS bid_amount,
    s.accepted, s.buyer_name, s.buyer_person_id, s.conducted_by,
    s.sale_expenses, s.balance_paid, s.disposal_note,
    s.source
FROM stg_sales s JOIN int_cases c USING (case_id)
