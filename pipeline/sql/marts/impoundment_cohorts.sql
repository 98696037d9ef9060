-- impoundment_cohorts: the cases impounded in a month at a pound, by animal class, and what
-- became of them as of the date the accounts are drawn up to (the analysts' trends):
--   cases, heads              impounded in the month
--   sold_unclaimed            cases sold as unclaimed under s.15 (status sold_unclaimed)
--   sold_any                  cases with any head sold (s.15, or s.17 when the owner refused to pay)
--   still_in_pound            cases with every head still in the pound
--   fines_due                 s.10(1) fines of those cases
--   fines_collected           fines of those cases collected by the accounts' date, whichever
--                             way they came (paid at release, deducted from a sale and sent
--                             through the DM, taken from a deposit under protest): what s.18(2)
--                             sends to the local fund. Whether the local fund's ledger shows
--                             them is the reconciliation's question, not this table's
--   fines_not_collected       fines_due - fines_collected
--   charges_due               feeding charges of those cases (s.12(1), s.17(2)), to release or sale,
--                             or to the accounts' date while held
--   charges_collected         charges of those cases paid to the pound-keeper under s.18(3) by the
--                             accounts' date (at release, deducted from a sale, or a deposit under
--                             protest taken as charges)
WITH collected AS (
    SELECT case_id,
           sum(amount) FILTER (WHERE account = 'local_fund' AND section = '18(2)') AS fines_collected,
           sum(amount) FILTER (WHERE account = 'pound_keeper' AND section = '18(3)') AS charges_collected
    FROM fund_movements
    WHERE ref_kind = 'case'
    GROUP BY case_id
)
SELECT a.impounded_month AS month, a.pound_id, a.pound_name, a.taluk, a.district, a.animal_class,
       count(*) AS cases,
       sum(a.head_count) AS heads,
       count(*) FILTER (WHERE a.status = 'sold_unclaimed') AS sold_unclaimed,
       count(*) FILTER (WHERE coalesce(a.head_sold, 0) > 0) AS sold_any,
       count(*) FILTER (WHERE a.status = 'in_pound') AS still_in_pound,
       coalesce(sum(a.fine_due), 0) AS fines_due,
       coalesce(sum(c.fines_collected), 0) AS fines_collected,
       coalesce(sum(a.fine_due), 0) - coalesce(sum(c.fines_collected), 0) AS fines_not_collected,
       coalesce(sum(a.feeding_due), 0) AS charges_due,
       coalesce(sum(c.charges_collected), 0) AS charges_collected
FROM case_accounts a LEFT JOIN collected c USING (case_id)
GROUP BY ALL
ORDER BY month, pound_id, animal_class
