-- ledger_sums: what the two ledgers record, summed per ledger, local authority, reference and head,
-- the key expected_credits uses; a reference is its case_ref (staging: trimmed and case folded), and
-- reference shows it as entered (blank: ''):
--   local_fund / fines, surplus, other   the local fund's entries by their head;
--   dm_deposit / receipt                 the DM's receipts of unclaimed surplus (s.18(5));
--   dm_deposit / credit_to_local_fund    the local fund's 'surplus' entries, set against what the
--                                        DM's ledger says it credited (reconciliation);
--   dm_deposit / any other kind          refunds to claimants and the like.
-- A DM entry without a local authority takes its case's. Read by credit_arrivals (what came of
-- each expected credit, for LF-CREDIT-OVERDUE and DM-RECEIPT-OVERDUE) and by the reconciliation,
-- so the rules and the auditors' view count one sum.
SELECT 'local_fund' AS ledger, local_authority_id, min(coalesce(reference, '')) AS reference,
       coalesce(case_ref, '') AS case_ref, head,
       sum(amount) AS ledger_amount, max(entry_on) AS entry_on, min(entry_on) AS first_entry_on,
       string_agg(entry_id, ' ' ORDER BY entry_on, entry_id) AS entry_ids
FROM stg_local_fund GROUP BY ALL
UNION ALL
SELECT 'dm_deposit', coalesce(d.local_authority_id, c.local_authority_id), min(coalesce(d.reference, '')),
       coalesce(d.case_ref, ''), d.kind,
       sum(d.amount), max(d.entry_on), min(d.entry_on), string_agg(d.entry_id, ' ' ORDER BY d.entry_on, d.entry_id)
FROM stg_dm_deposit d LEFT JOIN int_cases c ON c.case_ref = d.case_ref
WHERE d.kind <> 'credit_to_local_fund' GROUP BY ALL
UNION ALL
SELECT 'dm_deposit', local_authority_id, min(coalesce(reference, '')), coalesce(case_ref, ''), 'credit_to_local_fund',
       sum(amount), max(entry_on), min(entry_on), string_agg(entry_id, ' ' ORDER BY entry_on, entry_id)
FROM stg_local_fund WHERE head = 'surplus' GROUP BY ALL
