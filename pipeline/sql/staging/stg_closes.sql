-- stg_closes: every close of the bundle's months (BUNDLE/closes/*/close.json, read by the loader
-- at each build). A month (of a district, or of all) closed again with --reopen keeps both closes;
-- the later one is in force.
SELECT close_id, folder, month, district, closed_by, closed_at, note, reopen, as_of,
       closed_at = max(closed_at) OVER (PARTITION BY month, coalesce(district, '')) AS in_force
FROM closes
