-- made as: view of the build
-- stg_releases: the releases register as it stood on as_of (one row per release).
-- Blank amounts are "nothing paid" (0).
-- A view of the build: int_releases alone reads it, and holds every release (a state's build
-- wrote its 770,000 rows in about 0.8 s).
SELECT release_id, case_id, released_on, head_count, basis, released_to,
       coalesce(fines_paid, 0) AS fines_paid,
       coalesce(charges_paid, 0) AS charges_paid,
       coalesce(protest_deposit, 0) AS protest_deposit,
       declaration_made, security_deposit_id, receipt_signed, court_order_ref,
       _file || ' row ' || _row AS source
FROM current_releases() releases
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_releases(releases) <= as_of()
