-- rule: S15-NOTICE-BEFORE-REPORT
-- section: 15(2)
-- severity: high
-- subject: case
-- checks: The s.15(2) notice, or a proclamation by beat of drum (in the village or area, or at the market
--   place: R25), is dated before the s.15(1) report was made (a day before reported_on or earlier; the
--   same day is in order).
-- reading: s.15(2) has the officer give the notice and the proclamation "on receipt of a report under
--   sub-section (1)": one dated before the report was not given under it. The owner's w days then run
--   from the report's day, not the notice's (int_case_timeline.window_from, R24), so the sale is
--   allowed no earlier than it would have been had the notice come with the report. Checked whether or
--   not the owner later came forward: the notice is the officer's act, whatever followed it.
SELECT 'case' AS subject_kind, case_id AS subject_id, case_id, pound_id, local_authority_id,
       reported_on AS event_on,
       'Case ' || case_id || ' was reported to the police on ' || day_text(reported_on) || ', but '
       || CASE WHEN notice_on < reported_on AND proclamation_on < reported_on
                    THEN 'the notice is dated ' || day_text(notice_on) || ' and the proclamation by beat of drum '
                         || day_text(proclamation_on)
               WHEN notice_on < reported_on THEN 'the notice is dated ' || day_text(notice_on)
               WHEN proclamation_on < reported_on THEN 'the proclamation by beat of drum is dated ' || day_text(proclamation_on)
               ELSE 'the proclamation by beat of drum at the market place is dated ' || day_text(market_proclamation_on) END
       || ', before it: they are given on receipt of the report (s.15(2)); the owner''s ' || w
       || ' days run from the report''s day.' AS detail
FROM int_case_timeline
WHERE reported_on IS NOT NULL
  AND (notice_on < reported_on OR proclamation_on < reported_on OR market_proclamation_on < reported_on)
