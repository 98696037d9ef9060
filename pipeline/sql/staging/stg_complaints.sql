-- stg_complaints: complaints filed by as_of; a decision dated after as_of is not known yet
-- (the complaint is still pending on as_of).
SELECT case_id, filed_on,
       CASE WHEN decided_on <= as_of() THEN decided_on END AS decided_on,
       CASE WHEN decided_on > as_of() THEN 'pending' ELSE outcome END AS outcome,
       _file, _row
FROM complaints
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM complaints later WHERE later._version > 1 AND later.case_id = complaints.case_id AND later._version > complaints._version)
  AND NOT void AND filed_on <= as_of()
