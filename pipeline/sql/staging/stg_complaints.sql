-- stg_complaints: complaints filed by as_of; a decision dated after as_of is not known yet
-- (the complaint is still pending on as_of).
SELECT case_id, filed_on,
       CASE WHEN decided_on <= as_of() THEN decided_on END AS decided_on,
       CASE WHEN decided_on > as_of() THEN 'pending' ELSE outcome END AS outcome,
       _file, _row
FROM current_complaints() complaints
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void AND own_day_complaints(complaints) <= as_of()
