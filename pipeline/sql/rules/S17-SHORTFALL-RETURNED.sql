-- rule: S17-SHORTFALL-RETURNED
-- section: 17(1)
-- severity: high
-- subject: case
-- checks: An s.17 sale left dues unrecovered while heads were delivered back to the owner.
-- reading: s.17(1) allows selling as many as are necessary; returning heads while dues are short means
--   too few were sold.
SELECT 'case' AS subject_kind, a.case_id AS subject_id, a.case_id, a.pound_id, a.local_authority_id,
       r.returned_on AS event_on,
       'After the s.17 sale of case ' || a.case_id || ' on ' || day_text(a.sold_on) || ', ' || rs(a.sale_unrecovered)
       || ' of dues were not recovered, yet ' || r.heads || ' head were delivered back to the owner on ' || day_text(r.returned_on)
       || ' (s.17(1)).' AS detail
FROM case_accounts a
JOIN (SELECT case_id, sum(head_count) AS heads, min(released_on) AS returned_on
      FROM int_releases WHERE basis = 's17_remainder' GROUP BY case_id) r USING (case_id)
WHERE a.s17_sale AND a.sale_unrecovered > 0
