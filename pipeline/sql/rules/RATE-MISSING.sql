-- rule: RATE-MISSING
-- section: 10(1), 12
-- severity: low
-- subject: case
-- checks: No row of rates.csv applies to the case (its class, the pound's taluk or '*', in force on the
--   impounding date): its fines and charges cannot be computed and are left blank.
-- reading: The run goes on; money received for the case is shown as 'unallocated' in fund_movements.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       impounded_on AS event_on,
       'No rate for ' || animal_class || ' in ' || taluk || ' taluk (or for every taluk) is in force on ' || impounded_on
       || ', so the fines and charges of case ' || case_id || ' cannot be computed; add the rate to rates.csv.' AS detail
FROM stg_cases
WHERE NOT rate_found
