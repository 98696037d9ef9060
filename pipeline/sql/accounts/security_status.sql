-- security_status: one row per s.13 security deposit: what the Act makes of it
-- (computed) beside what the register says was done (recorded).
-- s.13(2): a deposit of owner o made on t is forfeitable when a case of o is
-- impounded in (t, t + 6 months] and that seizure was not adjudged illegal;
-- otherwise it is held until t + 6 months and refundable after it.
-- The owner is the deposit's owner_id, else the owner of the case it was made for.
-- The security an s.17 sale deducted (s.17(2)) is such a deposit too, held by the pound-keeper
-- (s.18(4)) from the sale day S (R1 of the second reading): one row with the amount deducted,
-- deposited_on S, and the id 's17:<sale_id>', unless a security_deposits row names the sale
-- (its sale_id; that row's id, refund and forfeiture). A sale that deducted nothing has no row.
-- case_security_at_rate: the case's heads x the security per head in force on the deposit day
-- (s.13(1)), whether or not s.13 was notified for the taluk (NULL where no rate row applies):
-- what a deposit for releasing the whole case that day would hold. What a release actually had
-- to secure (its heads, its day, s.13 notified) is int_releases.security_due_r, which
-- REL-NO-SECURITY checks; this column is for reading a deposit beside the rate.
WITH s17 AS (
    SELECT a.case_id, a.last_sale_id AS sale_id, a.sold_on, a.sale_paid_security AS amount, s.source
    FROM case_accounts a JOIN int_sales s ON s.sale_id = a.last_sale_id
    WHERE a.s17_sale AND a.sale_paid_security > 0
),
named AS (
    -- the register's row for a sale's deduction: one per case (the first by id)
    SELECT sd.*, s.case_id AS sale_case_id
    FROM stg_deposits sd JOIN int_sales s ON s.sale_id = sd.sale_id AND s.case_id = sd.case_id
    WHERE EXISTS (SELECT 1 FROM s17 x WHERE x.case_id = s.case_id)
    QUALIFY row_number() OVER (PARTITION BY s.case_id ORDER BY sd.deposit_id) = 1
),
all_deposits AS (
    SELECT sd.deposit_id, sd.case_id, sd.owner_id, sd.deposited_on, sd.amount, NULL::VARCHAR AS sale_id,
           sd.refund_applied_on, sd.refunded_on, sd.refunded_amount, sd.forfeited_on, sd.forfeited_amount,
           sd._file || ' row ' || sd._row AS source
    FROM stg_deposits sd
    WHERE sd.deposit_id NOT IN (SELECT deposit_id FROM named)
    UNION ALL
    SELECT coalesce(n.deposit_id, 's17:' || x.sale_id), x.case_id, n.owner_id, x.sold_on, x.amount, x.sale_id,
           n.refund_applied_on, n.refunded_on, n.refunded_amount, n.forfeited_on, n.forfeited_amount,
           coalesce(n._file || ' row ' || n._row || '; ', '') || x.source
    FROM s17 x LEFT JOIN named n ON n.sale_case_id = x.case_id
),
d AS (
    SELECT sd.*, c.pound_id, c.local_authority_id, c.taluk, c.district,
           c.head_count * security_rate(c.animal_class, c.taluk, sd.deposited_on) AS case_security_at_rate,
           coalesce(sd.owner_id, c.owner_id) AS depositor,
           add_months(sd.deposited_on, getvariable('security_window_months')) AS window_ends_on
    FROM all_deposits sd JOIN int_cases c USING (case_id)
),
reimpounded AS (
    SELECT d.deposit_id, i.case_id, i.impounded_on,
           row_number() OVER (PARTITION BY d.deposit_id ORDER BY i.impounded_on, i.case_id) AS k
    FROM d JOIN stg_impoundments i
      ON i.owner_id = d.depositor
     AND i.impounded_on > d.deposited_on
     AND i.impounded_on <= d.window_ends_on
    WHERE NOT EXISTS (SELECT 1 FROM stg_complaints k WHERE k.case_id = i.case_id AND k.outcome = 'illegal')
      -- a re-seizure under s.16(2) seizes again the cattle of a seizure already made: no new impounding
      AND i.reseizure_of IS NULL
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
    -- the s.17 sale whose deduction the deposit is (R1); blank for a deposit paid in
    d.sale_id,
    d.source
FROM d LEFT JOIN reimpounded r ON r.deposit_id = d.deposit_id AND r.k = 1
