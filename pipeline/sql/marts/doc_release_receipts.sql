-- made as: view
-- doc_release_receipts: one row per release: what was paid and the heads delivered, for the
-- receipt the owner or agent signs (s.12(2); s.16(1) delivery on deposit; s.17(4) remaining
-- cattle after a sale; a court's order, s.19(2)). Read by `pound documents`
-- (release_receipt_<release>). Amounts are as the releases register records them; the s.13
-- security is the deposit the release names. A release on payment (s.12(1)) also carries what
-- the Act asks for the heads delivered (int_releases), so a receipt paid short shows it.
-- Stored in no order (sorting it took up to half a second of a state's build): pound documents orders it (documents/papers.py).
SELECT
    r.release_id, r.case_id, r.pound_id, c.pound_name, r.taluk, r.district,
    k.name AS pound_keeper_name,
    r.released_on, r.head_count AS heads_delivered, c.head_count AS heads_impounded,
    r.animal_class, c.description, c.impounded_on, c.owner_name, c.owner_village,
    r.basis,
    CASE r.basis WHEN 's12_payment' THEN 's.12(1)' WHEN 's16_protest' THEN 's.16(1)'
                 WHEN 's17_remainder' THEN 's.17(3)' ELSE 's.19(2)' END AS basis_section,
    CASE r.basis WHEN 's12_payment' THEN 'on payment of the fines and charges'
                 WHEN 's16_protest' THEN 'on deposit of the fines and charges, the seizure being disputed'
                 WHEN 's17_remainder' THEN 'the cattle remaining after the sale'
                 ELSE 'by order of the court' END AS basis_text,
    r.released_to, r.court_order_ref, r.receipt_signed,
    -- what s.12(1) asks for the heads delivered (int_releases), beside what was paid
    CASE WHEN r.basis = 's12_payment' THEN r.fine_due_r END AS fines_due,
    -- R27: the s.17 remainder delivered after the sale day owes the feeding of the days since the sale
    CASE WHEN r.basis = 's12_payment' THEN r.feeding_due_r
         WHEN r.basis = 's17_remainder' AND r.after_sale_feeding_r > 0 THEN r.after_sale_feeding_r END AS charges_due,
    coalesce(r.fines_paid, 0) AS fines_paid,
    coalesce(r.charges_paid, 0) AS charges_paid,
    coalesce(r.protest_deposit, 0) AS protest_deposit,
    r.security_deposit_id,
    coalesce(d.amount, 0) AS security_deposited,
    coalesce(r.fines_paid, 0) + coalesce(r.charges_paid, 0) + coalesce(r.protest_deposit, 0)
        + coalesce(d.amount, 0) AS total_received,
    r.released_on AS doc_on, month_of(r.released_on) AS month,
    r.source
FROM int_releases r
JOIN int_cases c USING (case_id)
LEFT JOIN stg_deposits d ON d.deposit_id = r.security_deposit_id
LEFT JOIN stg_officials k ON k.person_id = c.pound_keeper_id
