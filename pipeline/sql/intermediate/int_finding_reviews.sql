-- int_finding_reviews: the District Magistrate's decisions (stg_finding_reviews), with what the
-- findings need to apply them. A decision is no event of the accounts: the meeting that decides on
-- a month sits after it, so a decision dated after the as-of date is applied to the accounts'
-- findings like any other.
--   future           dated after the day its file was loaded, or after the bundle's own date
--                    (bundle.toml as_of): it could not have been made yet (decision_known_by(), the
--                    rule of load/decisions.py). The load refuses such a row with one line; one
--                    loaded before that check is set aside, and counted.
--   corrected_after  for a decision recorded without the finding's detail: a correction loaded
--                    after the day of the decision changed a figure (an amount, a count or a date)
--                    of the row the finding is about (its subject), so the decision was made on
--                    other figures (macros.sql other_figures). A name corrected changes no figure.
--   newest           1 for the latest decision on its finding (by day, then by file), among those
--                    dated in time and apart among those set aside as future: the decision applied
--                    (findings.review_status) and the one review_log calls in force.
WITH figure_corrections AS (
    SELECT v.key, CAST(l.loaded_at AS DATE) AS loaded_on
    FROM (SELECT *, lag(row_json) OVER (PARTITION BY register, key ORDER BY version) AS prev_json
          FROM stg_register_versions) v
    JOIN stg_register_columns c ON c.register = v.register AND c.kind IN ('money', 'count', 'date')
    JOIN stg_loads l ON l.load_id = v._load_id
    WHERE v.prev_json IS NOT NULL
      AND (v.prev_json ->> c.column_name) IS DISTINCT FROM (v.row_json ->> c.column_name)
)
SELECT *, row_number() OVER (PARTITION BY rule_id, subject_id, future ORDER BY reviewed_on DESC, source DESC) AS newest
FROM (
SELECT r.*,
       coalesce(r.reviewed_on > decision_known_by(CAST(l.loaded_at AS DATE), l.bundle_as_of), false) AS future,
       EXISTS (SELECT 1 FROM figure_corrections m WHERE m.key = r.subject_id AND m.loaded_on > r.reviewed_on)
           AS corrected_after
FROM stg_finding_reviews r
LEFT JOIN stg_loads l ON l.load_id = r.load_id
)
