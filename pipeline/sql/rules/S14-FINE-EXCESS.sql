-- rule: S14-FINE-EXCESS
-- section: 14(3)
-- severity: high
-- subject: order
-- checks: A Tahsildar's fine for contravening a removal order that exceeds the cap of s.14(3).
-- reading: The cap is one thousand rupees (parameter s14_fine_cap).
SELECT 'order' AS subject_kind, order_id AS subject_id, NULL AS case_id, NULL AS pound_id, NULL AS local_authority_id,
       issued_on AS event_on,
       'Removal order ' || order_id || ' (' || taluk || ' taluk, owner ' || coalesce(owner_name, owner_id, 'unnamed')
       || ') carries a fine of ' || rs(fine_imposed) || ', above the ' || rs(getvariable('s14_fine_cap') * 100)
       || ' that s.14(3) allows.' AS detail
FROM stg_removal_orders
WHERE fine_imposed > getvariable('s14_fine_cap') * 100
