-- stg_releases: one row per release, with what the Act required on its day.
-- Release dues (accounts.md): fine_due_r = h x fine (s.10(1)); feeding_due_r =
-- h x feeding per day x days held (s.12(1)); security_due_r = h x security in
-- force on the release day where s.13 is notified for the pound's taluk.
SELECT
    r.release_id, r.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district,
    c.animal_class, c.impounded_on, c.owner_id, c.w, c.rate_found,
    r.released_on, r.head_count, r.basis, r.released_to,
    coalesce(r.fines_paid, 0) AS fines_paid,
    coalesce(r.charges_paid, 0) AS charges_paid,
    coalesce(r.protest_deposit, 0) AS protest_deposit,
    r.declaration_made, r.security_deposit_id, r.receipt_signed, r.court_order_ref,
    r.head_count * c.fine_per_head AS fine_due_r,
    r.head_count * c.feeding_per_head_per_day * held_days(c.impounded_on, r.released_on) AS feeding_due_r,
    notified('13', c.taluk, r.released_on) AS s13_on_release,
    CASE WHEN notified('13', c.taluk, r.released_on)
         THEN r.head_count * security_rate(c.animal_class, c.taluk, r.released_on) ELSE 0 END AS security_due_r,
    -- no rate row for the security due that day: the amount is unknown (RATE-MISSING)
    NOT (notified('13', c.taluk, r.released_on)
         AND security_rate(c.animal_class, c.taluk, r.released_on) IS NULL) AS security_rate_found,
    r._file || ' row ' || r._row AS source
FROM releases r JOIN stg_cases c USING (case_id)
WHERE r.released_on <= as_of()
