-- reconciliation_ties: the reconciliation's totals that tie, for the auditors (the reconciliation
-- page's "totals that tie", pipeline/reports/ties.py). One row per place, ledger and block: a local
-- fund's ledger whole (fines and surplus are both owed to it, head NULL), the District Magistrate's
-- deposit head by head (what he had to receive and what he credited on are never added together);
-- per place: a district and a local authority, either of them `all` for every one (grouping sets, as
-- page_one names every district `all`).
--   expected_total, credited_total, difference_total   the whole table's sums
--   expected_sum   the expected amount over the statuses on the expected side (matched, late, early,
--                  amount_mismatch, missing, pending: read/reconciliation.py EXPECTED_SIDE)
--   credited_sum   the amount entered over those on the ledger's side (matched, late, early,
--                  amount_mismatch, unexpected: LEDGER_SIDE)
--   ties           each side equals the table's total, and credited - expected is the difference
WITH blocks AS (
    SELECT district, local_authority_id, ledger, CASE WHEN ledger = 'dm_deposit' THEN head END AS head,
           status, expected_amount, ledger_amount, difference
    FROM reconciliation
),
sums AS (
    SELECT CASE WHEN grouping(district) = 1 THEN 'all' ELSE district END AS district,
           CASE WHEN grouping(local_authority_id) = 1 THEN 'all' ELSE local_authority_id END AS local_authority_id,
           ledger, head, count(*) AS rows,
           coalesce(sum(expected_amount), 0) AS expected_total,
           coalesce(sum(ledger_amount), 0) AS credited_total,
           coalesce(sum(difference), 0) AS difference_total,
           coalesce(sum(expected_amount) FILTER (WHERE status IN ('matched', 'late', 'early', 'amount_mismatch',
                                                                  'missing', 'pending')), 0) AS expected_sum,
           coalesce(sum(ledger_amount) FILTER (WHERE status IN ('matched', 'late', 'early', 'amount_mismatch',
                                                                'unexpected')), 0) AS credited_sum
    FROM blocks
    GROUP BY GROUPING SETS ((district, local_authority_id, ledger, head), (district, ledger, head),
                            (local_authority_id, ledger, head), (ledger, head))
)
SELECT *, expected_sum = expected_total AND credited_sum = credited_total
          AND credited_total - expected_total = difference_total AS ties
FROM sums
ORDER BY district, local_authority_id, ledger, head
