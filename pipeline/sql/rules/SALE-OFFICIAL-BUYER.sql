-- rule: SALE-OFFICIAL-BUYER
-- section: 19(1)
-- severity: high
-- subject: sale
-- checks: An accepted sale whose buyer is an official: buyer_person_id is in officials.csv, or the
--   buyer's name equals the name of an official of the pound's district.
-- reading: Names are compared ignoring case and all spaces ("Ramesh  Gowda" = "rameshgowda").
WITH matched AS (
    SELECT s.*, o.person_id, o.name AS official_name, o.role,
           row_number() OVER (PARTITION BY s.sale_id ORDER BY (o.person_id = s.buyer_person_id) DESC, o.person_id) AS k
    FROM int_sales s
    JOIN stg_officials o
      ON o.person_id = s.buyer_person_id
      OR (s.buyer_name IS NOT NULL AND lower(o.district) = lower(s.district)
          AND regexp_replace(lower(o.name), '\s+', '', 'g') = regexp_replace(lower(s.buyer_name), '\s+', '', 'g'))
    WHERE s.accepted
)
SELECT 'sale' AS subject_kind, sale_id AS subject_id, case_id, pound_id, local_authority_id, sale_on AS event_on,
       'Sale ' || sale_id || ' (case ' || case_id || ') on ' || day_text(sale_on) || ' sold ' || head_sold || ' head for '
       || rs(proceeds) || ' to ' || coalesce(buyer_name, buyer_person_id)
       || CASE WHEN person_id = buyer_person_id THEN ', who is ' ELSE ', who has the same name as ' END || official_name
       || ' (' || person_id || ', ' || replace(role, '_', '-') || '): officials may not buy at these sales (s.19(1)).' AS detail
FROM matched WHERE k = 1
