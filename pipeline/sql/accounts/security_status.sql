-- security_status: one row per s.13 security deposit: what the Act makes of it
-- (computed) beside what the register says was done (recorded).
-- s.13(2): a deposit of owner o made on t is forfeitable when a case of o is
-- impounded in (t, t + 6 months] and that seizure was not adjudged illegal;
-- otherwise it is held until t + 6 months and refundable after it.
-- The owner is the deposit's owner_id, else the owner of the case it was made for.
-- case_security_at_rate: the case's heads x the security per head in force on the deposit day
-- (s.13(1)), whether or not s.13 was notified for the taluk (NULL where no rate row applies):
-- what a deposit for releasing the whole case that day would hold. What a release actually had
-- to secure (its heads, its day, s.13 notified) is int_releases.security_due_r, which
-- REL-NO-SECURITY checks; this column is for reading a deposit beside the rate.
WITH d AS (
    SELECT sd.*, c.pound_id, c.local_authority_id, c.taluk, c.district,
           c.head_count * security_rate(c.animal_class, c.taluk, sd.deposited_on) AS case_security_at_rate,
           coalesce(sd.owner_id, c.owner_id) AS depositor,
           add_months(sd.deposited_on, getvariable('security_window_months')) AS window_ends_on
    FROM stg_deposits sd JOIN int_cases c USING (case_id)
),
reimpounded AS (
    SELECT d.deposit_id, i.case_id, i.impounded_on,
           row_number() OVER (PARTITION BY d.deposit_id ORDER BY i.impounded_on, i.case_id) AS k
    FROM d JOIN stg_impoundments i
      ON i.owner_id = d.depositor
     AND i.impounded_on > d.deposited_on
     AND i.impounded_on <= d.window_ends_on
    WHERE NOT EXISTS (SELECT 1 FROM stg_complaints k WHERE k.case_id = i.case_id AND k.outcome = 'illegal')
)
SELECT
    d.deposit_id, d.depositor AS owner_id, d.deposited_on, d.amount, d.window_ends_on,
    r.case_id AS reimpound_case_id,
    CASE WHEN r.case_id IS NOT NULL THEN 'forfeitable'
         WHEN as_of() > d.window_ends_on THEN 'refundable'
         ELSE 'held' END AS computed,
    CASE WHEN d.forfeited_on IS NOT NULL THEN 'forfeited'
         WHEN d.refunded_on IS NOT NULL THEN 'refunded'
         ELSE 'held' END AS recorded,
    -- beyond the export contract
    d.case_security_at_rate, d.case_id, d.pound_id, d.local_authority_id, d.taluk, r.impounded_on AS reimpounded_on,
    d.refund_applied_on, d.refunded_on, d.refunded_amount, d.forfeited_on, d.forfeited_amount,
    d._file || ' row ' || d._row AS source
FROM d LEFT JOIN reimpounded r ON r.deposit_id = d.deposit_id AND r.k = 1
