-- stg_finding_reviews: the District Magistrate's decisions on findings, the current version of each
-- (a review is corrected or struck out like any register row), whatever their date: a decision is
-- no event of the accounts (int_finding_reviews). finding_detail: the finding's detail as it stood
-- when decided (the review workbook fills it in).
SELECT rule_id, subject_id, reviewed_on, reviewed_by, decision, note, finding_detail, _load_id AS load_id,
       _file || ' row ' || _row AS source
FROM finding_reviews
-- the current version of each key (no later version of it), in force (not struck out)
WHERE NOT EXISTS (SELECT 1 FROM finding_reviews later WHERE later._version > 1 AND later.rule_id = finding_reviews.rule_id AND later.subject_id = finding_reviews.subject_id AND later.reviewed_on = finding_reviews.reviewed_on AND later._version > finding_reviews._version)
  AND NOT void
