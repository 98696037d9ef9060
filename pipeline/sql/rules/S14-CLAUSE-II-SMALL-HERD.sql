-- rule: S14-CLAUSE-II-SMALL-HERD
-- section: 14(1)(ii)
-- severity: medium
-- subject: order
-- checks: A clause (ii) order against an owner recorded with twenty head or fewer.
-- reading: Clause (ii) reaches only non-residents owning "more than twenty heads of cattle"
--   (parameter s14_herd_threshold); an order with no herd size recorded is not judged.
SELECT 'order' AS subject_kind, order_id AS subject_id, NULL AS case_id, NULL AS pound_id, NULL AS local_authority_id,
       issued_on AS event_on,
       'Removal order ' || order_id || ' of ' || day_text(issued_on) || ' was made under clause (ii) against '
       || coalesce(owner_name, owner_id, 'an owner') || ', who owns ' || owner_head_count
       || ' head; clause (ii) is only for owners of more than ' || getvariable('s14_herd_threshold') || ' (s.14(1)(ii)).' AS detail
FROM stg_removal_orders
WHERE clause = 'ii' AND owner_head_count <= getvariable('s14_herd_threshold')
