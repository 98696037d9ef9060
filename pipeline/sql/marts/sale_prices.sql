-- sale_prices: one row per year of sale, district and animal class: what the cattle
-- sold at auction fetched per head (s.15(3) unclaimed, s.17(2) owner refused to pay), for the
-- analysts' explore notebook. A case counts in the year of its completed sale (sold_on).
--   cases_sold, heads_sold    cases with an accepted sale, and the heads sold
--   proceeds                  the accepted bids (paise)
--   proceeds_per_head         proceeds / heads_sold in paise, rounded half up to the paisa
SELECT year(a.sold_on) AS sale_year, a.district, a.animal_class,
       count(*) AS cases_sold,
       sum(a.head_sold) AS heads_sold,
       sum(a.sale_proceeds) AS proceeds,
       (2 * sum(a.sale_proceeds) + sum(a.head_sold)) // (2 * sum(a.head_sold)) AS proceeds_per_head
FROM case_accounts a
WHERE a.sold_on IS NOT NULL AND a.head_sold > 0
GROUP BY ALL
ORDER BY sale_year, district, animal_class
