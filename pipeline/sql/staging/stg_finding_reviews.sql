-- stg_finding_reviews: the District Magistrate's decisions on findings, the current version of each
-- (a review is corrected or struck out like any register row), whatever their date: a decision is
-- no event of the accounts (int_finding_reviews). finding_detail: the finding's detail as it stood
-- when decided (the review workbook fills it in).
SELECT rule_id, subject_id, reviewed_on, reviewed_by, decision, note, finding_detail, _load_id AS load_id,
       _file || ' row ' || _row AS source
FROM current_finding_reviews() finding_reviews
-- of the current version of each key (current_<table>(), load/schema.py), the rows in force (not struck out)
WHERE NOT void
