-- int_removal_orders: s.14 orders issued by as_of, with the district of the order's taluk
-- (an order names a taluk, not a pound: its district is that of the pounds in the taluk,
-- which is how the reports file its findings and its fine by district).
SELECT o.*,
       (SELECT min(p.district) FROM stg_pounds p WHERE lower(p.taluk) = lower(o.taluk)) AS district
FROM stg_removal_orders o
