-- rule: RATE-MISSING
-- section: 10(1), 12
-- severity: low
-- subject: case
-- checks: No row of rates.csv gives the case's fine and feeding (its class, the pound's taluk or '*', in
--   force on the impounding date), or, where s.13 security falls due (a release on payment, an s.17 sale),
--   none gives the security in force that day: the amounts that need it are left blank.
-- reading: The run goes on; money received for the case that cannot be apportioned without the rate is
--   shown as 'unallocated' in fund_movements.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       CASE WHEN rate_found THEN security_missing_on ELSE impounded_on END AS event_on,
       CASE WHEN NOT rate_found THEN
                'No rate for ' || animal_class || ' in ' || taluk || ' taluk (or for every taluk) is in force on '
                || day_text(impounded_on) || ', so the fines and charges of case ' || case_id
                || ' cannot be computed; add the rate to rates.csv.'
            ELSE 'No security rate for ' || animal_class || ' in ' || taluk || ' taluk (or for every taluk) is in force on '
                || day_text(security_missing_on) || ', when security fell due in case ' || case_id
                || ' (s.13(1)), so it cannot be computed; add the rate to rates.csv.' END AS detail
FROM case_accounts
WHERE NOT amounts_known
