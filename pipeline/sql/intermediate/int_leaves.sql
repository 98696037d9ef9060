-- int_leaves: every event that takes heads out of the pound, one row each:
-- a release (any basis) on released_on, or an accepted sale on sale_on.
-- Feeding is charged to each head's leave date (s.12(1), s.17(2)).
SELECT case_id, release_id AS event_id, 'release' AS event, basis AS kind,
       released_on AS left_on, head_count AS heads
FROM int_releases
UNION ALL
SELECT case_id, sale_id, 'sale', path, sale_on, head_sold
FROM int_sales
WHERE accepted AND head_sold > 0
