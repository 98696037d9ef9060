-- rule: DM-RECEIPT-OVERDUE
-- section: 18(5)
-- severity: high
-- subject: expected_credit
-- checks: The surplus of a sale of unclaimed cattle that the District Magistrate's deposit ledger does
--   not show received in full more than ledger_grace days after the sale (after its due day, for the
--   balance of an s.17 sale the owner did not take). One finding per case; high
--   when Rs 5,000 or more is not received, else medium.
-- reading: s.18(5): "The surplus unclaimed proceeds of sale of cattle shall be sent to the District
--   Magistrate"; the Act gives no day, so ledger_grace (R17, default 30 days) is the time allowed. The
--   fines of a sale the DM receives under s.18(1) are followed through the local fund's fines credit
--   (LF-CREDIT-OVERDUE), not here. The balance of an s.17 sale the owner does not take within w days of it
--   is surplus too, due to the DM on the last of those days (R19), and its grace runs from that day.
-- the detail holds no count of days that grows with the as-of date: a decision on it holds to its figures
SELECT 'expected_credit' AS subject_kind, a.reference || ':surplus' AS subject_id,
       a.case_id, a.pound_id, a.local_authority_id, a.overdue_on AS event_on,
       CASE WHEN a.not_credited >= 500000 THEN 'high' ELSE 'medium' END AS severity,
       'The unclaimed surplus of ' || rs(a.expected_amount) || ' from the sale in case ' || a.reference || ' on '
       || day_text(coalesce(k.sold_on, a.due_on))
       -- R19: a balance the owner did not take is due to the DM w days after the sale
       || CASE WHEN k.sold_on < a.due_on THEN ', due to the District Magistrate on ' || day_text(a.due_on) ELSE '' END
       || ' (local fund of ' || coalesce(la.local_authority_name, a.local_authority_id) || ')'
       || CASE WHEN a.credited = 0 THEN ' is not received by the District Magistrate'
               ELSE ' is received by the District Magistrate only ' || rs(a.credited) || ' (' || rs(a.not_credited)
                    || ' short)' END
       || ' within the ' || a.grace_days || ' days allowed (s.18(5)).' AS detail
FROM credit_arrivals a
LEFT JOIN stg_local_authorities la ON la.local_authority_id = a.local_authority_id
LEFT JOIN case_accounts k ON k.case_id = a.case_id
WHERE a.ledger = 'dm_deposit' AND a.head = 'receipt' AND a.overdue
