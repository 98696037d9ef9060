-- stg_pounds: the pounds, each in one local authority, taluk and district.
SELECT pound_id, name AS pound_name, local_authority_id, taluk, district, pound_keeper_id
FROM pounds
