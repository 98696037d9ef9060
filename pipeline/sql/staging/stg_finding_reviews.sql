-- stg_finding_reviews: the District Magistrate's decisions on findings, the current version of each
-- (a review is corrected or struck out like any register row). A decision is no event of the
-- accounts: the meeting that decides on a month sits after it, so a decision dated after the as-of
-- date is kept and applied to the accounts' findings. What could not have happened is a decision
-- dated after the day its file was loaded, or after the bundle's own date (bundle.toml as_of): the
-- load refuses such a row with one line; one loaded before that check is set aside here (`future`).
-- finding_detail: the finding's detail as it stood when decided (the review workbook fills it in).
-- corrected_after: for a decision recorded without it, whether a correction loaded after the day of
-- the decision changed a figure (an amount, a count or a date) of the row the finding is about:
-- the decision was then made on other figures (a name corrected changes none).
WITH figure_corrections AS (
    SELECT v.key, CAST(l.loaded_at AS DATE) AS loaded_on
    FROM (SELECT *, lag(row_json) OVER (PARTITION BY register, key ORDER BY version) AS prev_json
          FROM stg_register_versions) v
    JOIN stg_register_columns c ON c.register = v.register AND c.kind IN ('money', 'count', 'date')
    JOIN stg_loads l ON l.load_id = v._load_id
    WHERE v.prev_json IS NOT NULL
      AND (v.prev_json ->> c.column_name) IS DISTINCT FROM (v.row_json ->> c.column_name)
)
SELECT r.rule_id, r.subject_id, r.reviewed_on, r.reviewed_by, r.decision, r.note, r.finding_detail,
       EXISTS (SELECT 1 FROM figure_corrections m WHERE m.key = r.subject_id AND m.loaded_on > r.reviewed_on)
           AS corrected_after,
       coalesce(r.reviewed_on > least(CAST(l.loaded_at AS DATE), coalesce(l.bundle_as_of, CAST(l.loaded_at AS DATE))),
                false) AS future,
       r._file || ' row ' || r._row AS source
FROM finding_reviews r
LEFT JOIN stg_loads l ON l.load_id = r._load_id
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM finding_reviews later WHERE later._version > 1 AND later.rule_id = r.rule_id AND later.subject_id = r.subject_id AND later.reviewed_on = r.reviewed_on AND later._version > r._version)
  AND NOT r.void
