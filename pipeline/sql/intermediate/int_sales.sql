-- int_sales: one row per auction attempt (s.15(3), s.17), with its case.
-- A rejected bid (accepted = no) sells nothing; its expenses still count.
-- A disposal after a rejected bid (path s15_disposal, the s.15(3) proviso: "may dispose of the
-- cattle in such manner as he thinks fit") is accepted whatever the cell says: its heads leave the
-- pound and what it brought (bid_amount, which may be 0) goes through the s.15 waterfall (R5).
-- The s.17 path rests on the owner's appearance (R18 of the fourth reading: s.17(1) opens "If the
-- owner or his agent appears before the pound-keeper"). An accepted s17_refusal attempt is unfounded
-- (s17_unfounded, S17-PATH-UNFOUNDED) where (a) the case records no owner and the attempt no person
-- who appeared (unfounded_no_owner), (b) the owner is recorded to have appeared after the attempt's
-- day (unfounded_appeared_after), or (c) the case was reported to the police under s.15(1) and no
-- appearance on or after the report's day is recorded (unfounded_after_report); a re-seizure's sale
-- is founded by the re-seizure (R4). Where one is unfounded the case is read as unclaimed: every
-- s17_refusal attempt of it is read as s15_unclaimed (path), so the s.15 rules judge it and what the
-- sale leaves is surplus for the DM (s.18(5)); path_recorded keeps the register's word.
WITH s AS (
    SELECT * REPLACE (s.accepted OR s.path = 's15_disposal' AS accepted) FROM stg_sales s
),
founded AS (
    SELECT s.*, c.pound_id, c.local_authority_id, c.taluk, c.district, c.animal_class, c.impounded_on, c.w,
           p.reported_on,
           s.path = 's17_refusal' AND s.accepted AND c.reseizure_of IS NULL AS judged,
           judged AND coalesce(trim(c.owner_id), '') = '' AND coalesce(trim(s.appeared_person), '') = ''
               AS unfounded_no_owner,
           judged AND coalesce(s.owner_appeared_on > s.sale_on, false) AS unfounded_appeared_after,
           judged AND p.reported_on IS NOT NULL AND coalesce(s.owner_appeared_on < p.reported_on, true)
               AS unfounded_after_report,
           unfounded_no_owner OR unfounded_appeared_after OR unfounded_after_report AS s17_unfounded
    FROM s JOIN int_cases c USING (case_id)
    LEFT JOIN stg_police_reports p USING (case_id)
)
SELECT
    s.sale_id, s.case_id, s.pound_id, s.local_authority_id, s.taluk, s.district, s.animal_class,
    s.impounded_on, s.w,
    CASE WHEN s.path = 's17_refusal' AND bool_or(s.s17_unfounded) OVER (PARTITION BY s.case_id)
         THEN 's15_unclaimed' ELSE s.path END AS path,
    s.path AS path_recorded, s.sale_on, s.head_offered,
    CASE WHEN s.accepted THEN coalesce(s.head_sold, 0) ELSE 0 END AS head_sold,
    CASE WHEN s.accepted THEN coalesce(s.bid_amount, 0) ELSE 0 END AS proceeds,
    coalesce(s.bid_amount, 0) AS bid_amount,
    s.accepted, s.buyer_name, s.buyer_person_id, s.conducted_by,
    s.sale_expenses, s.balance_paid, s.balance_paid_on, s.balance_receipt_signed, s.disposal_note,
    s.owner_appeared_on, s.appeared_person, s.reported_on,
    s.s17_unfounded, s.unfounded_no_owner, s.unfounded_appeared_after, s.unfounded_after_report,
    s.source
FROM founded s
