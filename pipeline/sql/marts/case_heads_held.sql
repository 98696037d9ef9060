-- made as: view
-- case_heads_held: the heads of each case still in the pound from a day on, for the pound-keeper's
-- workbook of a month (pound template --month): one row per case and day its count changes (the day
-- of impounding, and the day after each day heads left it, int_leaves), with the case's rates as the
-- accounts took them (s.10(1) fines, feeding). How feeding days are counted is the parameters
-- table's feeding_days. reseizure_of: a re-seizure's dues are the office's to work out (R11).
-- A view: no model reads it, and the workbook reads one pound's cases (a state's build wrote its
-- 1.9 million rows in about 1.2 s). It reads tables alone, so any later command can read it.
SELECT c.case_id, c.pound_id, c.impounded_on, c.animal_class, c.fine_per_head, c.feeding_per_head_per_day, c.reseizure_of,
       d.from_day,
       c.head_count - coalesce((SELECT sum(l.heads) FROM int_leaves l
                                WHERE l.case_id = c.case_id AND l.left_on < d.from_day), 0) AS heads
FROM int_cases c
JOIN (SELECT case_id, impounded_on AS from_day FROM int_cases
      UNION SELECT case_id, left_on + 1 FROM int_leaves) d ON d.case_id = c.case_id
