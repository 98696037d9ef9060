-- stg_officials: officials of the districts (s.19(1): they may not buy at a sale).
SELECT person_id, name, role, district
FROM officials
