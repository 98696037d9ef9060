-- stg_cases: one row per case (impoundments), with its pound, taluk, local
-- authority and the rate row in force on the impounding date.
-- s.10(1) fines and s.12 feeding charges use the row of rates.csv for the
-- case's class and the pound's taluk (else '*') in force on impounded_on
-- (parameter rate_date); no row found leaves the rates blank (RATE-MISSING).
WITH cases AS (
    SELECT i.*, p.local_authority_id, p.taluk, p.district, p.pound_keeper_id
    FROM stg_impoundments i JOIN pounds p USING (pound_id)
),
rate_match AS (
    SELECT c.case_id, r.fine_per_head, r.feeding_per_head_per_day, r.taluk AS rate_taluk,
           r.effective_from AS rate_from, r._file || ' row ' || r._row AS rate_source,
           row_number() OVER (PARTITION BY c.case_id ORDER BY (r.taluk <> '*') DESC, r.effective_from DESC) AS pick
    FROM cases c
    JOIN rates r
      ON r.animal_class = c.animal_class
     AND (lower(r.taluk) = lower(c.taluk) OR r.taluk = '*')
     AND r.effective_from <= c.impounded_on
     AND (r.effective_to IS NULL OR c.impounded_on <= r.effective_to)
)
SELECT
    c.case_id, c.pound_id, c.local_authority_id, c.taluk, c.district, c.pound_keeper_id,
    c.animal_class, c.head_count, c.seized_on, c.impounded_on, c.owner_id, c.owner_name, c.owner_village,
    claim_window(c.animal_class) AS w,
    r.case_id IS NOT NULL AS rate_found,
    r.fine_per_head, r.feeding_per_head_per_day, r.rate_source,
    c._file || ' row ' || c._row AS source
FROM cases c
LEFT JOIN rate_match r ON r.case_id = c.case_id AND r.pick = 1
