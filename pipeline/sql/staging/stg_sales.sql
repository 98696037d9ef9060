-- stg_sales: one row per auction attempt (s.15(3), s.17), with its case.
-- A rejected bid (accepted = no) sells nothing; its expenses still count.
SELECT
    s.sale_id, s.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district, c.animal_class,
    c.impounded_on, c.w, s.path, s.sale_on, s.head_offered,
    CASE WHEN s.accepted THEN coalesce(s.head_sold, 0) ELSE 0 END AS head_sold,
    CASE WHEN s.accepted THEN coalesce(s.bid_amount, 0) ELSE 0 END AS proceeds,
    coalesce(s.bid_amount, 0) AS bid_amount,
    s.accepted, s.buyer_name, s.buyer_person_id, s.conducted_by,
    coalesce(s.sale_expenses, 0) AS sale_expenses,
    s.balance_paid, s.disposal_note,
    s._file || ' row ' || s._row AS source
FROM sales s JOIN stg_cases c USING (case_id)
WHERE s.sale_on <= as_of()
