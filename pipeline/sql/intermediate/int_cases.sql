-- int_cases: one row per case (impoundments), with its pound, taluk, local
-- authority and the rate row in force on the impounding date.
-- s.10(1) fines and s.12 feeding charges use the row of rates.csv for the
-- case's class and the pound's taluk (else '*') in force on impounded_on
-- (parameter rate_date); no row found leaves the rates blank (RATE-MISSING).
-- A re-seizure under s.16(2) (reseizure_of names the case delivered under protest) levies no
-- fine of its own: the fines were deposited under s.16(1) with the protest deposit and went to the
-- local fund when the complaint failed or was not made (R4); what the deposit left unpaid is carried
-- (int_reseizures, R11); its own feeding runs from its own impounded_on.
WITH cases AS (
    SELECT i.*, p.pound_name, p.local_authority_id, p.taluk, p.district, p.pound_keeper_id
    FROM stg_impoundments i JOIN stg_pounds p USING (pound_id)
),
rate_match AS (
    SELECT c.case_id, r.r_fine AS fine_per_head, r.r_feeding AS feeding_per_head_per_day,
           r.r_source AS rate_source,
           row_number() OVER (PARTITION BY c.case_id ORDER BY (r.r_taluk <> '*') DESC, r.r_from DESC) AS pick
    FROM cases c
    JOIN stg_rate_rows r
      ON r.r_class = c.animal_class
     AND (r.r_taluk = lower(c.taluk) OR r.r_taluk = '*')
     AND r.r_from <= c.impounded_on
     AND (r.r_to IS NULL OR c.impounded_on <= r.r_to)
)
SELECT
    c.case_id, c.pound_id, c.pound_name, c.local_authority_id, c.taluk, c.district, c.pound_keeper_id,
    c.animal_class, c.head_count, c.seized_on, c.impounded_on, c.owner_id, c.owner_name, c.owner_village,
    c.place_of_seizure, c.description, c.reseizure_of, c.case_ref,
    claim_window(c.animal_class) AS w,
    r.case_id IS NOT NULL AS rate_found,
    CASE WHEN c.reseizure_of IS NOT NULL THEN 0 ELSE r.fine_per_head END AS fine_per_head, r.feeding_per_head_per_day, r.rate_source,
    c._file || ' row ' || c._row AS source
FROM cases c
LEFT JOIN rate_match r ON r.case_id = c.case_id AND r.pick = 1
