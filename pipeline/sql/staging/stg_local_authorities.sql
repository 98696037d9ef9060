-- stg_local_authorities: the local authorities whose local funds receive fines and surplus (s.18).
SELECT local_authority_id, name AS local_authority_name, kind, district
FROM local_authorities
