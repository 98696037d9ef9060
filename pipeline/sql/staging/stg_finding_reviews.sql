-- stg_finding_reviews: the District Magistrate's decisions on findings made by as_of, the
-- current version of each (a review is corrected or struck out like any register row).
SELECT rule_id, subject_id, reviewed_on, reviewed_by, decision, note,
       _file || ' row ' || _row AS source
FROM finding_reviews
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM finding_reviews later WHERE later._version > 1 AND later.rule_id = finding_reviews.rule_id AND later.subject_id = finding_reviews.subject_id AND later.reviewed_on = finding_reviews.reviewed_on AND later._version > finding_reviews._version)
  AND NOT void
    AND reviewed_on <= as_of()
