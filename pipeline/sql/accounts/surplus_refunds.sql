-- surplus_refunds: one row per `refund_to_claimant` entry of the DM's deposit ledger naming a case,
-- and whether a claim lets him pay it. s.18(5) has him credit the surplus to the local fund "if no
-- claim thereto is preferred and established within that period" (six months, from each sum he
-- receives, R12); R23 of the fourth reading: a refund takes the surplus from the local fund's credit
-- only when a claim for the case was preferred within the six months of the receipt the refund draws
-- on and established on or before the refund's day. A case's refunds are set against the DM's receipts
-- for it in the order both were entered (day, then entry id), first in first out by amount, as his
-- credits are (surplus_credits):
--   refunded_before      what his earlier refunds for the case came to
--   draws_on             the receipts it draws on (entry ids); holding_ends_on the last day of the
--                        latest of their six months (blank: it draws on none, the DM having received
--                        nothing, or less than he refunds: no six months have begun, none have ended)
--   claim_id, claimant   the claim it is paid on: of the case's claims, the first preferred (then by
--                        claim id) that was preferred by holding_ends_on and established by the refund's
--                        day; else blank
--   in_time              a claim was found: the refund is matched to it, and fund_movements sends the
--                        refund to the claimant out of the local fund's credit
--   why_not              otherwise: no_claim (none recorded for the case), late (every claim preferred
--                        after the six months), unestablished (one preferred in time, not established by
--                        the refund's day): the finding DM-CLAIM-OUT-OF-TIME; the local fund's credit stays due
--   late_claims          for `late`, the claims and their days, for the finding's detail
WITH refunds AS (
    SELECT d.entry_id, c.case_id, c.case_ref, c.pound_id, coalesce(d.local_authority_id, c.local_authority_id)
               AS local_authority_id, d.entry_on, d.amount,
           coalesce(sum(d.amount) OVER (PARTITION BY c.case_id ORDER BY d.entry_on, d.entry_id
                                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS refunded_before
    FROM stg_dm_deposit d JOIN int_cases c ON c.case_ref = d.case_ref
    WHERE d.kind = 'refund_to_claimant'
),
drawn AS (
    SELECT e.entry_id, string_agg(r.entry_id, ' ' ORDER BY r.part_no) AS draws_on,
           max(r.part_holding_ends_on) AS holding_ends_on
    FROM refunds e JOIN int_dm_receipts r
      ON r.case_id = e.case_id
     AND r.received_before < e.refunded_before + e.amount
     AND e.refunded_before < r.received_before + r.amount
    GROUP BY ALL
),
judged AS (
    SELECT e.*, d.draws_on, d.holding_ends_on,
           -- the claim it is paid on (preferred in time, established by the refund's day)
           (SELECT arg_min(k.claim_id, (k.preferred_on, k.claim_id)) FROM stg_surplus_claims k
            WHERE k.case_id = e.case_id AND (d.holding_ends_on IS NULL OR k.preferred_on <= d.holding_ends_on)
              AND k.established_on <= e.entry_on) AS claim_id,
           (SELECT count(*) FROM stg_surplus_claims k WHERE k.case_id = e.case_id) AS claims,
           (SELECT count(*) FROM stg_surplus_claims k WHERE k.case_id = e.case_id
              AND (d.holding_ends_on IS NULL OR k.preferred_on <= d.holding_ends_on)) AS claims_in_time,
           (SELECT string_agg(k.claim_id || ' of ' || k.claimant || ', preferred on ' || day_text(k.preferred_on),
                              '; ' ORDER BY k.preferred_on, k.claim_id)
            FROM stg_surplus_claims k WHERE k.case_id = e.case_id) AS case_claims
    FROM refunds e LEFT JOIN drawn d USING (entry_id)
)
SELECT j.entry_id, j.case_id, j.case_ref, j.pound_id, j.local_authority_id, j.entry_on, j.amount,
       j.refunded_before, j.draws_on, j.holding_ends_on, j.claim_id, k.claimant, k.preferred_on, k.established_on,
       j.claim_id IS NOT NULL AS in_time,
       CASE WHEN j.claim_id IS NOT NULL THEN NULL
            WHEN j.claims = 0 THEN 'no_claim'
            WHEN j.claims_in_time = 0 THEN 'late'
            ELSE 'unestablished' END AS why_not,
       j.case_claims
FROM judged j LEFT JOIN stg_surplus_claims k USING (claim_id)
