-- stg_finding_reviews: the District Magistrate's decisions on findings made by as_of, the
-- current version of each (a review is corrected or struck out like any register row).
SELECT rule_id, subject_id, reviewed_on, reviewed_by, decision, note,
       _file || ' row ' || _row AS source
FROM finding_reviews
QUALIFY _version = max(_version) OVER (PARTITION BY rule_id, subject_id, reviewed_on) AND NOT void
    AND reviewed_on <= as_of()
