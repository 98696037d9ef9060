-- rule: S14-NOT-NOTIFIED
-- section: 14(1)
-- severity: high
-- subject: order
-- checks: A removal order issued in a taluk where s.14 was not notified on the day it was issued: high
--   where a removal by the police or a fine followed the order, else medium.
-- reading: s.14 applies only in local areas the State Government has notified (notifications.csv); an
--   order made elsewhere binds nobody, so a removal or a fine under it was done without authority, and a
--   fine paid under it is owed back to the owner (fund_movements).
SELECT 'order' AS subject_kind, order_id AS subject_id, NULL AS case_id, NULL AS pound_id, NULL AS local_authority_id,
       issued_on AS event_on,
       CASE WHEN police_removal_on IS NOT NULL OR coalesce(fine_imposed, 0) > 0 THEN 'high' ELSE 'medium' END AS severity,
       'Removal order ' || order_id || ' was issued on ' || day_text(issued_on) || ' in ' || taluk
       || ' taluk, where s.14 was not notified that day (s.14(1))'
       || CASE WHEN police_removal_on IS NOT NULL AND coalesce(fine_imposed, 0) > 0
                   THEN '; yet the police removed the cattle on ' || day_text(police_removal_on) || ' and a fine of '
                        || rs(fine_imposed) || ' was imposed under it'
               WHEN police_removal_on IS NOT NULL THEN '; yet the police removed the cattle on ' || day_text(police_removal_on)
               WHEN coalesce(fine_imposed, 0) > 0 THEN '; yet a fine of ' || rs(fine_imposed) || ' was imposed under it'
               ELSE '' END
       || '.' AS detail
FROM stg_removal_orders
WHERE NOT notified('14', taluk, issued_on)
