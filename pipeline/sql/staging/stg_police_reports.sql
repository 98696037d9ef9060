-- stg_police_reports: the s.15 report, notice and proclamation, each only if made by as_of.
SELECT case_id,
       CASE WHEN reported_on <= as_of() THEN reported_on END AS reported_on, reported_to,
       CASE WHEN notice_on <= as_of() THEN notice_on END AS notice_on,
       CASE WHEN proclamation_on <= as_of() THEN proclamation_on END AS proclamation_on,
       _file, _row
FROM police_reports
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM police_reports later WHERE later._version > 1 AND later.case_id = police_reports.case_id AND later._version > police_reports._version)
  AND NOT void
