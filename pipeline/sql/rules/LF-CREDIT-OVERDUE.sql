-- rule: LF-CREDIT-OVERDUE
-- section: 18(2), 18(5)
-- severity: high
-- subject: expected_credit
-- checks: A credit the Act sends to a local fund (the fines of a case, s.18(2); the surplus of an
--   unclaimed sale after the DM's six months, s.18(5)) that the local fund's ledger does not show in
--   full more than ledger_grace days after its due day. One finding per case and head, section 18(2)
--   for fines and 18(5) for surplus; high when Rs 5,000 or more is not credited, else medium. A
--   surplus with no due day yet (the DM has received none of it) is never overdue.
-- reading: s.18(2) has the fines "credited to the local fund of the local authority within the
--   jurisdiction of which the pound is located", and s.18(5) the surplus after the DM's six months;
--   the Act gives no day, so ledger_grace (R16, default 30 days) is the time allowed.
-- the detail holds no count of days that grows with the as-of date: a decision on it holds to its figures
SELECT 'expected_credit' AS subject_kind, a.reference || ':' || a.head AS subject_id,
       a.case_id, a.pound_id, a.local_authority_id, a.overdue_on AS event_on,
       CASE a.head WHEN 'surplus' THEN '18(5)' ELSE '18(2)' END AS section,
       CASE WHEN a.not_credited >= 500000 THEN 'high' ELSE 'medium' END AS severity,
       'The ' || CASE a.head WHEN 'surplus' THEN 'unclaimed surplus' ELSE 'fines' END || ' of case ' || a.reference
       || ', ' || rs(a.expected_amount) || ' due to the local fund of '
       || coalesce(la.local_authority_name, a.local_authority_id) || ' on ' || day_text(a.due_on)
       || CASE WHEN a.credited = 0 THEN ', are not credited'
               ELSE ', are credited only ' || rs(a.credited) || ' (' || rs(a.not_credited) || ' short)' END
       || ' within the ' || a.grace_days || ' days allowed (s.'
       || CASE a.head WHEN 'surplus' THEN '18(5)' ELSE '18(2)' END || ').' AS detail
FROM credit_arrivals a
LEFT JOIN stg_local_authorities la ON la.local_authority_id = a.local_authority_id
WHERE a.ledger = 'local_fund' AND a.overdue
