-- int_releases: one row per release, with what the Act required on its day.
-- Release dues: fine_due_r = h x fine (s.10(1)); feeding_due_r =
-- h x feeding per day x days held (s.12(1)); security_due_r = h x security in
-- force on the release day where s.13 is notified for the pound's taluk.
-- fines_over_r, charges_over_r: what a release on payment collected over its fine and feeding dues
-- (R29 of the fourth reading: s.12(1) delivers the cattle "on payment of the fines fixed and the
-- charges payable", no more, so the excess is owed back to the owner): REL-OVERCHARGED names it and
-- fund_movements sends it to him. Nothing where the dues are unknown (no rate: RATE-MISSING), or the
-- release is dated before the impounding (REL-UNAUTHORISED: it has no dues to exceed), or on any other
-- basis (a deposit under protest, a court's order, the s.17 remainder are not paid under s.12(1)).
-- after_sale_feeding_r (R27 of the fourth reading, s.17(3), s.12(1)): the s.17 remainder delivered after the
-- sale day owes the feeding of its heads from the day after the sale (the case's last accepted sale on or
-- before the release; the sale paid for the days to its own day) to the release, as charges payable at
-- that release: h x feeding per day x (R - S) days, whether days or nights are counted; nothing on the sale
-- day. after_sale_unpaid_r: what the release did not collect of it (REL-UNPAID; unrecovered in case_accounts).
WITH r AS (
    SELECT
        r.release_id, r.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district,
        c.animal_class, c.impounded_on, c.owner_id, c.w, c.rate_found, c.feeding_per_head_per_day,
        r.released_on, r.head_count, r.basis, r.released_to,
        r.fines_paid, r.charges_paid, r.protest_deposit,
        r.declaration_made, r.security_deposit_id, r.receipt_signed, r.court_order_ref,
        s10_fine(r.head_count, c.fine_per_head) AS fine_due_r,
        feeding_charge(r.head_count, c.feeding_per_head_per_day, c.impounded_on, r.released_on) AS feeding_due_r,
        notified('13', c.taluk, r.released_on) AS s13_on_release,
        CASE WHEN r.basis = 's17_remainder' THEN
             (SELECT max(s.sale_on) FROM int_sales s
              WHERE s.case_id = r.case_id AND s.accepted AND s.path = 's17_refusal' AND s.sale_on <= r.released_on)
        END AS remainder_sold_on,
        r.source
    FROM stg_releases r JOIN int_cases c USING (case_id)
)
SELECT r.* EXCLUDE (source), x.security_due_r,
       CASE WHEN r.basis = 's12_payment' AND r.rate_found AND r.released_on >= r.impounded_on
            THEN greatest(r.fines_paid - r.fine_due_r, 0) ELSE 0 END AS fines_over_r,
       CASE WHEN r.basis = 's12_payment' AND r.rate_found AND r.released_on >= r.impounded_on
            THEN greatest(r.charges_paid - r.feeding_due_r, 0) ELSE 0 END AS charges_over_r,
       -- no rate row for the security due that day: the amount is unknown (RATE-MISSING)
       x.security_due_r IS NOT NULL AS security_rate_found,
       CASE WHEN r.remainder_sold_on IS NOT NULL AND r.rate_found
            THEN r.head_count * r.feeding_per_head_per_day * CAST(r.released_on - r.remainder_sold_on AS BIGINT)
            WHEN r.basis = 's17_remainder' THEN 0 END AS after_sale_feeding_r,
       greatest(after_sale_feeding_r - coalesce(r.charges_paid, 0), 0) AS after_sale_unpaid_r,
       r.source
FROM r, LATERAL (SELECT s13_security(r.head_count, r.animal_class, r.taluk, r.released_on) AS security_due_r) x
