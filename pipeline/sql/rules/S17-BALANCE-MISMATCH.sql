-- rule: S17-BALANCE-MISMATCH
-- section: 17(3)
-- severity: high
-- subject: sale
-- checks: The balance recorded as paid to the owner on the last accepted s.17 attempt differs from the
--   balance the waterfall leaves (a blank counts as nothing paid).
-- reading: Balance = proceeds less expenses, feeding to the sale day, fines and security (waterfall_order).
SELECT 'sale' AS subject_kind, s.sale_id AS subject_id, a.case_id, a.pound_id, a.local_authority_id, s.sale_on AS event_on,
       'Sale ' || s.sale_id || ' (case ' || a.case_id || ') on ' || day_text(s.sale_on) || ' records ' || rs(s.balance_paid)
       || ' paid to the owner, but the s.17(3) account leaves a balance of ' || rs(a.balance_to_owner)
       || ' (proceeds ' || rs(a.sale_proceeds) || ' less expenses ' || rs(a.sale_paid_expenses) || ', feeding '
       || rs(a.sale_paid_feeding) || ', fines ' || rs(a.sale_paid_fines) || ', security ' || rs(a.sale_paid_security) || ').' AS detail
FROM case_accounts a
JOIN (SELECT case_id, arg_max(sale_id, {'on': sale_on, 'id': sale_id}) AS sale_id
      FROM int_sales WHERE accepted AND path = 's17_refusal' GROUP BY case_id) last USING (case_id)
JOIN int_sales s ON s.sale_id = last.sale_id
WHERE a.amounts_known AND coalesce(s.balance_paid, 0) <> a.balance_to_owner
