-- made as: view
-- doc_security_receipts: one row per security deposited under s.13(1) before cattle are delivered
-- in a notified area, for the receipt the pound-keeper gives the depositor: the amount, the case
-- and its cattle, and what s.13(2) makes of the deposit (forfeited if the depositor's cattle are
-- impounded again within six months of it, else refundable on application after them). Read by
-- `pound documents` (security_receipt_<deposit>). The security an s.17 sale deducts from the
-- proceeds (a row naming a sale_id) is receipted on the owner's account, not here. The release
-- that names the deposit, if any, is the first by its date and id.
-- Stored in no order: pound documents orders it (documents/papers.py).
WITH w AS (
    -- the reading as the database keeps it: a later connection has none of the build's variables
    SELECT CAST(value AS INTEGER) AS months FROM stg_parameters WHERE name = 'security_window_months'
),
rel AS (
    SELECT security_deposit_id AS deposit_id, release_id, released_on, head_count AS heads_delivered,
           row_number() OVER (PARTITION BY security_deposit_id ORDER BY released_on, release_id) AS k
    FROM int_releases
    WHERE security_deposit_id IS NOT NULL
)
SELECT
    d.deposit_id, d.case_id, c.pound_id, c.pound_name, c.taluk, c.district,
    k.name AS pound_keeper_name,
    c.owner_name, c.owner_village, c.animal_class, c.head_count, c.description, c.impounded_on,
    d.deposited_on, d.amount,
    add_months(d.deposited_on, w.months) AS refundable_after,
    w.months AS window_months,
    r.release_id, r.released_on, r.heads_delivered,
    d.deposited_on AS doc_on, month_of(d.deposited_on) AS month,
    d._file || ' row ' || d._row AS source
FROM stg_deposits d
JOIN int_cases c USING (case_id)
CROSS JOIN w
LEFT JOIN rel r ON r.deposit_id = d.deposit_id AND r.k = 1
LEFT JOIN stg_officials k ON k.person_id = c.pound_keeper_id
WHERE d.sale_id IS NULL
