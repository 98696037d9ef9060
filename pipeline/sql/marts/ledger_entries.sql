-- ledger_entries: every entry of both ledgers as it stands in the database (the current
-- version, not struck out, made by as_of), with the file and row it was loaded from.
--   ledger               'local_fund' (the local funds' ledger) or 'dm_deposit' (the DM's deposit, s.18(5))
--   kind                 the local fund's head, or the DM's kind of entry (receipt, credit_to_local_fund, ...)
--   local_authority_id   as entered; a DM entry naming none belongs to the authority of the case it refers to
-- Its period basis is entry_on.
-- Stored in no order (sorting it took up to half a second of a state's build): balance_items sums it, the audit workbook orders it.
SELECT 'local_fund' AS ledger, f.entry_id, f.entry_on, f.local_authority_id, la.local_authority_name, la.district,
       f.head AS kind, f.reference, f.case_ref, f.amount, f.correction_note, f._file AS file, f._row AS row, f._version AS version,
       month_of(f.entry_on) AS month
FROM stg_local_fund f LEFT JOIN stg_local_authorities la USING (local_authority_id)
UNION ALL
SELECT 'dm_deposit', d.entry_id, d.entry_on, coalesce(d.local_authority_id, c.local_authority_id),
       la.local_authority_name, la.district, d.kind, d.reference, d.case_ref, d.amount, d.correction_note, d._file, d._row,
       d._version, month_of(d.entry_on)
FROM stg_dm_deposit d
LEFT JOIN int_cases c ON c.case_ref = d.case_ref
LEFT JOIN stg_local_authorities la ON la.local_authority_id = coalesce(d.local_authority_id, c.local_authority_id)
