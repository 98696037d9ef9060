-- rule: S14-NOT-ENFORCED
-- section: 14(2)
-- severity: medium
-- subject: order
-- checks: A removal order not complied with by its date, with no removal by the police recorded.
-- reading: Compliance after comply_by counts as not complied with by it; the police removal of s.14(2)
--   is the enforcement the Act provides. An order made where s.14 was not notified on its issue day binds
--   nobody (s.14(1)): there is nothing to enforce, and S14-NOT-NOTIFIED says so.
SELECT 'order' AS subject_kind, order_id AS subject_id, NULL AS case_id, NULL AS pound_id, NULL AS local_authority_id,
       comply_by AS event_on,
       'Removal order ' || order_id || ' (' || taluk || ' taluk, owner ' || coalesce(owner_name, owner_id, 'unnamed')
       || ') was to be complied with by ' || day_text(comply_by) || '; '
       || CASE WHEN complied_on IS NULL THEN 'no compliance' ELSE 'compliance only on ' || day_text(complied_on) END
       || ' and no removal by the police is recorded (s.14(2)).' AS detail
FROM stg_removal_orders
WHERE comply_by IS NOT NULL
  AND as_of() > comply_by
  AND (complied_on IS NULL OR complied_on > comply_by)
  AND police_removal_on IS NULL
  AND notified('14', taluk, issued_on)
