-- credit_arrivals: what came of each credit the Act sends to a ledger (expected_credits): the
-- local fund's fines (s.18(2)) and surplus (s.18(5)), and the surplus the DM must receive
-- (s.18(5)); one row each, with what the ledger shows for the same key (ledger_sums).
--   credited        what the ledger's entries for the key sum to (0 when it has none)
--   not_credited    expected_amount - credited, at least 0
--   grace_days      ledger_grace, the days allowed (R16, R17), for the findings' words
--   overdue_on      due_on + ledger_grace: the first day a credit not made in full is overdue on
--                   the day after (blank for a credit with no due day: pending, R2 and R12)
--   overdue         as_of > overdue_on and less than the amount expected is credited: a finding of
--                   LF-CREDIT-OVERDUE (local fund, R16) or DM-RECEIPT-OVERDUE (the DM's receipt, R17)
--   district, month the district of the case's pound (else of the local authority) and the month of
--                   overdue_on, as the finding is filed: the first page of the monthly review counts
--                   the money overdue by them (R14)
-- The rules and the reconciliation both read it, so a credit overdue there is the finding here.
-- Stored in no order (sorting it took up to half a second of a state's build): its readers (models only) join or sum it.
SELECT x.ledger, x.local_authority_id, x.reference, x.case_ref, x.head, x.expected_amount, x.due_on,
       coalesce(e.ledger_amount, 0) AS credited,
       greatest(x.expected_amount - coalesce(e.ledger_amount, 0), 0) AS not_credited,
       getvariable('ledger_grace') AS grace_days,
       x.due_on + getvariable('ledger_grace') AS overdue_on,
       coalesce(x.due_on IS NOT NULL AND as_of() > x.due_on + getvariable('ledger_grace')
                AND coalesce(e.ledger_amount, 0) < x.expected_amount, false) AS overdue,
       c.case_id, c.pound_id, e.entry_ids,
       coalesce(p.district, la.district) AS district, month_of(x.due_on + getvariable('ledger_grace')) AS month
FROM expected_credits x
LEFT JOIN ledger_sums e
  ON e.ledger = x.ledger AND e.head = x.head
 AND e.local_authority_id IS NOT DISTINCT FROM x.local_authority_id
 AND e.case_ref = x.case_ref
LEFT JOIN int_cases c ON c.case_ref = x.case_ref
LEFT JOIN stg_pounds p ON p.pound_id = c.pound_id
LEFT JOIN stg_local_authorities la ON la.local_authority_id = x.local_authority_id
