-- rule: S17-BALANCE-MISMATCH
-- section: 17(3)
-- severity: high
-- subject: sale
-- checks: The balance recorded as paid to the owner on an accepted s.17 attempt differs from the balance
--   that attempt's own waterfall leaves (a blank counts as nothing paid).
-- reading: Balance = the attempt's proceeds less its expenses, the feeding of the heads it charges for to its
--   day, their fines and the security (waterfall_order): each sale pays for the heads it sells (R22 of the
--   fourth reading, sale_attempt_accounts), so each attempt's balance is its own.
SELECT 'sale' AS subject_kind, t.sale_id AS subject_id, t.case_id, t.pound_id, t.local_authority_id, t.sale_on AS event_on,
       'Sale ' || t.sale_id || ' (case ' || t.case_id || ') on ' || day_text(t.sale_on) || ' records ' || rs(s.balance_paid)
       || ' paid to the owner, but the s.17(3) account leaves a balance of ' || rs(t.balance_to_owner)
       || ' (proceeds ' || rs(t.sale_proceeds) || ' less expenses ' || rs(t.paid_expenses) || ', feeding '
       || rs(t.paid_feeding) || ', fines ' || rs(t.paid_fines) || ', security ' || rs(t.paid_security) || ').' AS detail
FROM sale_attempt_accounts t
JOIN int_sales s USING (sale_id)
WHERE t.path = 's17_refusal' AND t.amounts_known AND coalesce(s.balance_paid, 0) <> t.balance_to_owner
