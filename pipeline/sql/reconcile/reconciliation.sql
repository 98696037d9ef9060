-- reconciliation: one row per expected credit or ledger entry key (the auditors' view).
-- Expected credits come from expected_credits (what fund_movements sends to each
-- ledger); ledger entries with the same key are summed. Keys are (local authority, reference,
-- head); a reference is compared as its case_ref (trimmed and case folded in staging).
--   local_fund:  movements to the local fund, head 'fines' (s.18(2)) or 'surplus'
--                (s.18(5)), against the local_fund ledger.
--   dm_deposit / receipt: surplus the DM must receive (s.18(5)) against his
--                deposit ledger's receipts.
--   dm_deposit / refund_to_claimant: his refunds on a claim preferred within his six months and
--                established by the refund (surplus_refunds, R23), the claims named in expected_from.
--   dm_deposit / credit_to_local_fund: what the DM's ledger says it credited to a
--                local fund against the local fund's 'surplus' entries (its own entries are
--                named in expected_from; entry_ids names the local fund's).
-- Status (lag L = reconciliation_lag days): matched (same amount, entered by due + L);
-- late (same amount, after due + L); early (surplus credited on or before the end of
-- the DM's six months, counted from each receipt the credit draws on, or before any receipt: the
-- entries accounts/surplus_credits finds early, the finding DM-SURPLUS-CREDITED-EARLY that early_rule
-- names, R21); amount_mismatch (same key, other amount); missing (no
-- entry and as_of > due + L); pending (no entry, not yet due + L); unexpected (an
-- entry with no expected credit). difference = ledger_amount - expected_amount.
WITH sale_days AS (
    SELECT k.case_ref, a.sold_on, h.dm_holding_ends_on
    FROM case_accounts a JOIN int_cases k USING (case_id) LEFT JOIN int_dm_holding h USING (case_id)
    WHERE a.sold_on IS NOT NULL
),
-- the surplus credits of a case entered too soon, per ledger: the local fund's entries stand on its
-- surplus row, the DM's on his credit_to_local_fund row (R21)
early_credits AS (
    SELECT CASE ledger WHEN 'local_fund' THEN 'surplus' ELSE 'credit_to_local_fund' END AS head, case_ref
    FROM surplus_credits WHERE early
    GROUP BY ALL
),
expected AS (
    SELECT ledger, local_authority_id, reference, case_ref, head, expected_amount, due_on, NULL AS expected_from
    FROM expected_credits
    UNION ALL
    SELECT 'dm_deposit', coalesce(d.local_authority_id, c.local_authority_id), min(d.reference), d.case_ref,
           'credit_to_local_fund', sum(d.amount), max(d.entry_on), string_agg(d.entry_id, ' ' ORDER BY d.entry_on, d.entry_id)
    FROM stg_dm_deposit d LEFT JOIN int_cases c ON c.case_ref = d.case_ref
    WHERE d.kind = 'credit_to_local_fund'
    GROUP BY ALL
    UNION ALL
    -- R23: the DM's refunds to a claimant on a claim preferred and established in time (surplus_refunds),
    -- expected as entered, the claims named in expected_from; a refund on no such claim is unexpected
    -- (DM-CLAIM-OUT-OF-TIME), and where a case has both, the row's amounts differ
    SELECT 'dm_deposit', local_authority_id, min(case_id), case_ref, 'refund_to_claimant', sum(amount), max(entry_on),
           string_agg(DISTINCT claim_id, ' ' ORDER BY claim_id)
    FROM surplus_refunds WHERE in_time
    GROUP BY ALL
),
entries AS (
    -- the ledgers' entries summed per key (ledger_sums, which the overdue-credit rules read too)
    SELECT ledger, local_authority_id, reference, case_ref, head, ledger_amount, entry_on, first_entry_on, entry_ids
    FROM ledger_sums
),
joined AS (
    SELECT coalesce(x.ledger, e.ledger) AS ledger,
           coalesce(x.local_authority_id, e.local_authority_id) AS local_authority_id,
           coalesce(x.reference, e.reference) AS reference,
           coalesce(x.case_ref, e.case_ref) AS case_ref,
           coalesce(x.head, e.head) AS head,
           x.expected_amount, x.due_on, e.ledger_amount, e.entry_on, e.first_entry_on, e.entry_ids, x.expected_from,
           coalesce(a.overdue, false) AS overdue, a.overdue_on
    FROM expected x
    FULL OUTER JOIN entries e
      ON x.ledger = e.ledger AND x.head = e.head
     AND x.local_authority_id IS NOT DISTINCT FROM e.local_authority_id
     AND x.case_ref = e.case_ref
    -- an expected credit or receipt not made in full within ledger_grace days of its due day: the
    -- finding LF-CREDIT-OVERDUE or DM-RECEIPT-OVERDUE (credit_arrivals) stands beside its row
    LEFT JOIN credit_arrivals a
      ON x.expected_from IS NULL AND a.ledger = x.ledger AND a.head = x.head
     AND a.local_authority_id IS NOT DISTINCT FROM x.local_authority_id AND a.case_ref = x.case_ref
),
classified AS (
    SELECT j.*, s.sold_on, CASE WHEN ec.case_ref IS NOT NULL THEN 'DM-SURPLUS-CREDITED-EARLY' END AS early_rule,
           CASE
               WHEN j.expected_amount IS NULL THEN 'unexpected'
               WHEN j.ledger_amount IS NULL THEN
                    CASE WHEN as_of() > j.due_on + getvariable('reconciliation_lag') THEN 'missing' ELSE 'pending' END
               WHEN j.ledger_amount <> j.expected_amount THEN 'amount_mismatch'
               -- the local fund booked the surplus, or the DM credited it, before the DM's six months
               -- ran out, counted from each receipt it draws on, or before he had received it at all
               -- (surplus_credits); a reference that is no case's, or a case never sold, has no six
               -- months to run (no DM receipt of a sale's surplus: int_dm_holding)
               WHEN j.head IN ('surplus', 'credit_to_local_fund') AND (ec.case_ref IS NOT NULL OR s.dm_holding_ends_on IS NULL)
                    THEN 'early'
               WHEN j.entry_on <= j.due_on + getvariable('reconciliation_lag') THEN 'matched'
               ELSE 'late'
           END AS status
    FROM joined j LEFT JOIN sale_days s ON s.case_ref = j.case_ref
    LEFT JOIN early_credits ec ON ec.head = j.head AND ec.case_ref = j.case_ref
)
SELECT c.ledger, c.local_authority_id, c.reference, c.head, c.expected_amount, c.due_on, c.ledger_amount, c.entry_on,
       coalesce(c.ledger_amount, 0) - coalesce(c.expected_amount, 0) AS difference,
       c.status,
       -- beyond the export contract
       c.case_ref, c.entry_ids, c.expected_from,
       -- overdue: the credit is a finding (LF-CREDIT-OVERDUE, DM-RECEIPT-OVERDUE) since overdue_on
       c.overdue, c.overdue_on,
       CASE WHEN c.overdue THEN CASE WHEN c.ledger = 'local_fund' THEN 'LF-CREDIT-OVERDUE' ELSE 'DM-RECEIPT-OVERDUE' END END AS overdue_rule,
       -- early_rule: the finding a surplus credited too soon is (R21), beside its row
       c.early_rule,
       CASE WHEN c.entry_on IS NOT NULL AND c.due_on IS NOT NULL THEN CAST(c.entry_on - c.due_on AS BIGINT) END AS days_after_due,
       CASE WHEN c.status IN ('missing', 'pending') THEN CAST(as_of() - c.due_on AS BIGINT) END AS days_outstanding,
       c.sold_on,
       la.local_authority_name, la.district,
       -- a break is what an auditor must take up: anything but matched, and pending (not yet due
       -- with the lag) is not one yet
       c.status NOT IN ('matched', 'pending') AS is_break,
       -- the difference on what has fallen due (with the lag): a pending credit counts nothing yet
       CASE WHEN c.status = 'pending' THEN 0 ELSE difference END AS difference_due,
       -- what the row stands for among the statuses: the amount expected, or for an entry
       -- nothing was expected for (unexpected), the amount entered
       CASE WHEN c.status = 'unexpected' THEN c.ledger_amount ELSE c.expected_amount END AS status_amount,
       -- the order an auditor takes breaks up in: wrong amounts and missing credits first
       CASE c.status WHEN 'amount_mismatch' THEN 1 WHEN 'missing' THEN 2 WHEN 'unexpected' THEN 3
                     WHEN 'late' THEN 4 WHEN 'early' THEN 5 WHEN 'pending' THEN 6 ELSE 7 END AS status_rank,
       month_of(c.due_on) AS due_month, month_of(c.entry_on) AS entry_month,
       -- the day that puts the row in a period: an expected credit's due day, else (an
       -- entry nothing was due for) the day it was entered
       coalesce(c.due_on, c.entry_on) AS period_on,
       month_of(coalesce(c.due_on, c.entry_on)) AS period_month,
       -- how long a missing credit has been outstanding past its due day, in bands
       CASE WHEN c.status = 'missing' THEN
           CASE WHEN as_of() - c.due_on <= 30 THEN 1 WHEN as_of() - c.due_on <= 60 THEN 2
                WHEN as_of() - c.due_on <= 90 THEN 3 WHEN as_of() - c.due_on <= 180 THEN 4
                WHEN as_of() - c.due_on <= 365 THEN 5 ELSE 6 END END AS ageing_band,
       CASE WHEN c.status = 'missing' THEN
           CASE WHEN as_of() - c.due_on <= 30 THEN 'up to 30 days' WHEN as_of() - c.due_on <= 60 THEN '31-60 days'
                WHEN as_of() - c.due_on <= 90 THEN '61-90 days' WHEN as_of() - c.due_on <= 180 THEN '91-180 days'
                WHEN as_of() - c.due_on <= 365 THEN '181-365 days' ELSE 'over a year' END END AS ageing
FROM classified c
LEFT JOIN stg_local_authorities la ON la.local_authority_id = c.local_authority_id
ORDER BY c.ledger, c.local_authority_id, c.reference, c.head
