-- rule: SALE-OFFICIAL-BUYER
-- section: 19(1)
-- severity: high
-- subject: sale
-- checks: An accepted sale whose buyer is an official of any district: high when buyer_person_id is in
--   officials.csv; medium when only the buyer's name equals an official's name, and the detail says so.
-- reading: s.19(1) bars "any" police officer, pound-keeper or officer authorised to sell, not only those
--   of the pound's district. Names are compared ignoring case and all spaces ("Ramesh  Gowda" =
--   "rameshgowda"); a name alone may be another person's, hence medium.
WITH matched AS (
    SELECT s.*, o.person_id, o.name AS official_name, o.role, o.district AS official_district,
           o.person_id = s.buyer_person_id AS by_id,
           row_number() OVER (PARTITION BY s.sale_id
                              ORDER BY (o.person_id = s.buyer_person_id) DESC,
                                       (lower(o.district) = lower(s.district)) DESC, o.person_id) AS k
    FROM int_sales s
    JOIN stg_officials o
      ON o.person_id = s.buyer_person_id
      OR (s.buyer_name IS NOT NULL
          AND regexp_replace(lower(o.name), '\s+', '', 'g') = regexp_replace(lower(s.buyer_name), '\s+', '', 'g'))
    WHERE s.accepted
)
SELECT 'sale' AS subject_kind, sale_id AS subject_id, case_id, pound_id, local_authority_id, sale_on AS event_on,
       CASE WHEN by_id THEN 'high' ELSE 'medium' END AS severity,
       'Sale ' || sale_id || ' (case ' || case_id || ') on ' || day_text(sale_on) || ' sold ' || head_sold || ' head for '
       || rs(proceeds) || ' to ' || coalesce(buyer_name, buyer_person_id)
       || CASE WHEN by_id THEN ', who is ' ELSE ', who has the same name as ' END || official_name
       || ' (' || person_id || ', ' || replace(role, '_', '-') || ', ' || coalesce(official_district, 'no district') || ')'
       || CASE WHEN by_id THEN '' ELSE ' (a match on the name only: the register names no person id)' END
       || ': officials may not buy at these sales (s.19(1)).' AS detail
FROM matched WHERE k = 1
