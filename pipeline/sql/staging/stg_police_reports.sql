-- stg_police_reports: the s.15 report, notice and proclamation, each only if made by as_of.
SELECT case_id,
       CASE WHEN reported_on <= as_of() THEN reported_on END AS reported_on, reported_to,
       CASE WHEN notice_on <= as_of() THEN notice_on END AS notice_on,
       CASE WHEN proclamation_on <= as_of() THEN proclamation_on END AS proclamation_on,
       _file, _row
FROM police_reports
QUALIFY _version = max(_version) OVER (PARTITION BY case_id) AND NOT void
