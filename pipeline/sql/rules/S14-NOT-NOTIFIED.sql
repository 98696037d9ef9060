-- rule: S14-NOT-NOTIFIED
-- section: 14(1)
-- severity: medium
-- subject: order
-- checks: A removal order issued in a taluk where s.14 was not notified on the day it was issued.
-- reading: s.14 applies only in local areas the State Government has notified (notifications.csv).
SELECT 'order' AS subject_kind, order_id AS subject_id, NULL AS case_id, NULL AS pound_id, NULL AS local_authority_id,
       issued_on AS event_on,
       'Removal order ' || order_id || ' was issued on ' || day_text(issued_on) || ' in ' || taluk
       || ' taluk, where s.14 was not notified that day (s.14(1)).' AS detail
FROM stg_removal_orders
WHERE NOT notified('14', taluk, issued_on)
