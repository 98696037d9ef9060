-- stg_surplus_claims: claims to a case's unclaimed surplus preferred by as_of (s.18(5), R23 of the
-- fourth reading); a claim established after as_of is not established yet.
SELECT claim_id, case_id, trim(claimant) AS claimant, preferred_on,
       CASE WHEN established_on <= as_of() THEN established_on END AS established_on,
       amount, _file, _row
FROM current_surplus_claims() surplus_claims
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_surplus_claims(surplus_claims) <= as_of()
