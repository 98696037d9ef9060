-- rule: S16-FOLLOW-UP-MISSING
-- section: 16(2)
-- severity: medium
-- subject: release
-- checks: After a delivery under protest on R, the seizure was declared lawful (trigger day: decided_on)
--   or no complaint was filed within complaint_window days (trigger day: R + complaint_window), more than
--   followup_grace days have passed, s.13 is notified for the pound's taluk on the trigger day, and
--   neither a security deposit for the case dated after R of at least the s.13 security for the heads
--   delivered under protest (at the rate in force for the taluk and class on the deposit's day), an
--   accepted s.17 sale of it, nor a re-seizure of it (a case whose reseizure_of names it) exists. A
--   smaller deposit is named in the detail, with the amount required and the shortfall.
-- reading: Outside s.13 areas s.16(2) asks for no declaration or security. A withdrawn or pending
--   complaint is no trigger: s.16(2) names only a lawful finding or no complaint. s.16(2) requires
--   "the amount of security as required by section 13": less is not that deposit (R15).
WITH triggered AS (
    -- u: int_protests.followup_due_on, the one definition of the trigger day
    SELECT p.*, p.complained_in_time AS in_time, p.followup_due_on AS u
    FROM int_protests p
    WHERE p.basis = 's16_protest'
),
deposits AS (
    -- deposits for the case after the delivery, each against the s.13 security of the heads delivered
    -- under protest at the rate on its own day (R15); no rate found asks for nothing more
    SELECT t.release_id, d.deposit_id, d.deposited_on, d.amount,
           coalesce(s13_security(t.head_count, t.animal_class, t.taluk, d.deposited_on), 0) AS required
    FROM triggered t JOIN stg_deposits d ON d.case_id = t.case_id AND d.deposited_on > t.released_on
),
short AS (
    -- the largest deposit, when none is enough
    SELECT release_id, arg_max(deposit_id, amount) AS deposit_id, arg_max(deposited_on, amount) AS deposited_on,
           max(amount) AS amount, arg_max(required, amount) AS required
    FROM deposits GROUP BY release_id HAVING NOT bool_or(amount >= required)
)
SELECT 'release' AS subject_kind, t.release_id AS subject_id, t.case_id, t.pound_id, t.local_authority_id,
       t.followup_grace_ends_on AS event_on,
       'Case ' || t.case_id || ' was delivered under protest on ' || day_text(t.released_on) || '; '
       || CASE WHEN t.in_time THEN 'the seizure was declared lawful on ' || day_text(t.u)
               ELSE 'no complaint was filed by ' || day_text(t.u) END
       || ', so the owner had to declare ownership and deposit security or the cattle be seized again for sale (s.16(2)); '
       || CASE WHEN k.deposit_id IS NULL THEN 'neither is recorded.'
               ELSE 'deposit ' || k.deposit_id || ' of ' || rs(k.amount) || ' on ' || day_text(k.deposited_on)
                    || ' is less than the ' || rs(k.required) || ' of security required by s.13, short by '
                    || rs(k.required - k.amount) || ', and no seizure again is recorded.' END AS detail
FROM triggered t
LEFT JOIN short k USING (release_id)
WHERE t.u IS NOT NULL
  AND as_of() > t.followup_grace_ends_on
  AND notified('13', t.taluk, t.u)
  AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.release_id = t.release_id AND d.amount >= d.required)
  AND NOT EXISTS (SELECT 1 FROM int_sales s WHERE s.case_id = t.case_id AND s.accepted AND s.path = 's17_refusal')
  -- the cattle seized again for the purposes of s.17 (a case whose reseizure_of names this one: R4)
  AND NOT EXISTS (SELECT 1 FROM int_cases x WHERE x.reseizure_of = t.case_id)
