-- stg_releases: the releases register as it stood on as_of (one row per release).
-- Blank amounts are "nothing paid" (0).
SELECT release_id, case_id, released_on, head_count, basis, released_to,
       coalesce(fines_paid, 0) AS fines_paid,
       coalesce(charges_paid, 0) AS charges_paid,
       coalesce(protest_deposit, 0) AS protest_deposit,
       declaration_made, security_deposit_id, receipt_signed, court_order_ref,
       _file || ' row ' || _row AS source
FROM releases
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM releases later WHERE later._version > 1 AND later.release_id = releases.release_id AND later._version > releases._version)
  AND NOT void AND released_on <= as_of()
