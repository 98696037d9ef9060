-- case_accounts: one row per case: what the Act made due and what became of it.
-- fine_due = heads x fine (s.10(1)), levied once per head.
-- feeding_due = feeding per head per day x the days each head was held, to its
--   leave date, or to as_of while still in the pound (s.12(1), s.17(2)).
-- security_due = s.13(1) security for heads delivered on payment (s.12), and for an s.17
--   sale the security of the heads returned to the owner by the s17_remainder release(s),
--   at the rate on the sale day where s.13 is notified that day; none when every head was sold
--   (s.13(1) ties the security to releasing cattle; s.17(3) returns "the remaining cattle":
--   R1 of the second reading); nothing under s.15.
-- The sale waterfall (s.15(3), s.17(2)): proceeds pay, in waterfall_order,
--   the expenses of every attempt, feeding of the heads still held to the sale
--   day S, their fines, and (s.17 only) their security; what remains is the
--   owner's balance (s.17(3)) or surplus for the DM (s.18(5)); what a due
--   could not take is unrecovered. A balance the owner does not take within w days of the sale
--   is surplus for the DM too (balance_unclaimed, R19). Heads delivered before S paid their own dues.
-- A re-seizure under s.16(2) carries what the protest deposit left unpaid of the first case's fines
--   and feeding charges (int_reseizures, R11): in its fine_due and feeding_due, and in what its sale
--   must meet.
-- amounts_known: a rate row gives the fine and feeding (rate_found) and, where security
--   falls due, the security; otherwise the amounts that need it are blank (RATE-MISSING).
WITH leaves AS (
    SELECT l.case_id,
           sum(l.heads) AS heads_out,
           sum(l.heads) FILTER (WHERE l.event = 'release') AS heads_released,
           sum(l.heads) FILTER (WHERE l.kind = 's12_payment') AS heads_s12,
           sum(l.heads) FILTER (WHERE l.kind = 's16_protest') AS heads_s16,
           sum(l.heads) FILTER (WHERE l.kind = 's17_remainder') AS heads_s17_remainder,
           sum(l.heads) FILTER (WHERE l.kind = 'court_order') AS heads_court,
           sum(l.heads) FILTER (WHERE l.kind = 's15_unclaimed') AS heads_sold_s15,
           sum(l.heads) FILTER (WHERE l.kind = 's17_refusal') AS heads_sold_s17,
           sum(l.heads) FILTER (WHERE l.kind = 's15_disposal') AS heads_disposed,
           sum(l.heads * held_days(c.impounded_on, l.left_on)) AS head_days_gone,
           max(held_days(c.impounded_on, l.left_on)) AS longest_gone,
           max(l.left_on) AS last_left_on
    FROM int_leaves l JOIN int_cases c USING (case_id)
    GROUP BY l.case_id
),
released_before_sale AS (
    SELECT r.case_id, sum(r.head_count) AS heads
    FROM int_releases r JOIN int_case_sales s USING (case_id)
    WHERE s.any_accepted AND r.released_on < s.sold_on
    GROUP BY r.case_id
),
s12_security AS (
    SELECT case_id, sum(security_due_r) AS amount,
           min(released_on) FILTER (WHERE NOT security_rate_found) AS missing_on
    FROM int_releases WHERE basis = 's12_payment'
    GROUP BY case_id
),
base AS (
    SELECT c.*,
           coalesce(l.heads_out, 0) AS heads_out,
           coalesce(l.heads_released, 0) AS heads_released,
           c.head_count - coalesce(l.heads_out, 0) AS heads_in_pound,
           coalesce(l.heads_s12, 0) AS heads_s12, coalesce(l.heads_s16, 0) AS heads_s16,
           coalesce(l.heads_s17_remainder, 0) AS heads_s17_remainder, coalesce(l.heads_court, 0) AS heads_court,
           coalesce(l.heads_sold_s15, 0) AS heads_sold_s15, coalesce(l.heads_sold_s17, 0) AS heads_sold_s17,
           coalesce(l.heads_disposed, 0) AS heads_disposed,
           coalesce(l.head_days_gone, 0) AS head_days_gone,
           l.longest_gone, l.last_left_on,
           coalesce(s.any_accepted, false) AS sold,
           coalesce(s.s17_sale, false) AS s17_sale,
           coalesce(s.sale_proceeds, 0) AS sale_proceeds,
           coalesce(s.sale_expenses, 0) AS sale_expenses,
           coalesce(s.head_sold, 0) AS head_sold,
           s.sold_on, s.last_sale_id, s.sale_officer, s.balance_paid, s.balance_paid_on,
           greatest(c.head_count - coalesce(rb.heads, 0), 0) AS held_at_sale,   -- over-released (DQ-HEADS-MISMATCH): none
           coalesce(s12.amount, 0) AS s12_security_due,
           s12.missing_on AS s12_security_missing_on,
           coalesce(rs.carried_fines, 0) AS carried_fines, coalesce(rs.carried_feeding, 0) AS carried_feeding
    FROM int_cases c
    LEFT JOIN leaves l USING (case_id)
    LEFT JOIN int_case_sales s USING (case_id)
    LEFT JOIN released_before_sale rb USING (case_id)
    LEFT JOIN s12_security s12 USING (case_id)
    LEFT JOIN int_reseizures rs USING (case_id)
),
-- the security an s.17 sale must meet, looked up for those cases alone (a lookup over every case
-- took a second of a state's build)
s17_security AS (
    SELECT b.case_id,
           CASE WHEN b.heads_s17_remainder > 0
                THEN s13_security(b.heads_s17_remainder, b.animal_class, b.taluk, b.sold_on) ELSE 0 END AS remainder,
           s13_security(1, b.animal_class, b.taluk, b.sold_on) AS one_head
    FROM base b WHERE b.sold AND b.s17_sale
),
dues AS (
    SELECT b.*,
           -- the dues the sale must meet
           CASE WHEN b.sold THEN b.sale_expenses END AS wf_expenses,
           CASE WHEN b.sold THEN feeding_charge(b.held_at_sale, b.feeding_per_head_per_day, b.impounded_on, b.sold_on)
                                 + b.carried_feeding END AS wf_feeding,
           CASE WHEN b.sold THEN s10_fine(b.held_at_sale, b.fine_per_head) + b.carried_fines END AS wf_fines,
           CASE WHEN b.sold AND b.s17_sale THEN s17.remainder WHEN b.sold THEN 0 END AS wf_security,
           -- S17-OVERSALE: the security of one more head returned, had one head fewer been sold
           s17.one_head AS wf_security_one_head
    FROM base b LEFT JOIN s17_security s17 USING (case_id)
),
known AS (
    SELECT d.*,
           CASE WHEN d.s12_security_missing_on IS NOT NULL THEN d.s12_security_missing_on
                WHEN d.sold AND d.wf_security IS NULL THEN d.sold_on END AS security_missing_on,
           d.rate_found AND d.s12_security_missing_on IS NULL AND NOT (d.sold AND d.wf_security IS NULL) AS amounts_known
    FROM dues d
),
waterfall AS (
    SELECT d.*,
           wf_take('expenses', wf_expenses, sale_proceeds, wf_expenses, wf_feeding, wf_fines, wf_security) AS take_expenses,
           wf_take('feeding',  wf_feeding,  sale_proceeds, wf_expenses, wf_feeding, wf_fines, wf_security) AS take_feeding,
           wf_take('fines',    wf_fines,    sale_proceeds, wf_expenses, wf_feeding, wf_fines, wf_security) AS take_fines,
           wf_take('security', wf_security, sale_proceeds, wf_expenses, wf_feeding, wf_fines, wf_security) AS take_security
    FROM known d
),
balance AS (
    -- R19 of the fourth reading (s.17(3), s.17(4), s.18(5)): the balance is the owner's to take by the sale
    -- day + w (balance_unclaimed_on); what the register records paid by then (balance_paid on
    -- balance_paid_on, a blank day read as the sale day, up to the balance) is paid to him, and the rest is
    -- surplus unclaimed proceeds for the DM, due that day. A payment dated after the as-of date is not made yet.
    SELECT p.*,
           p.balance_to_owner_all - p.balance_paid_by AS balance_unclaimed
    FROM (SELECT v.*,
                 CASE WHEN v.balance_to_owner_all IS NULL THEN NULL
                      WHEN coalesce(v.balance_paid_on, v.sold_on) <= least(v.sold_on + v.w, as_of())
                      THEN least(greatest(coalesce(v.balance_paid, 0), 0), v.balance_to_owner_all) ELSE 0 END AS balance_paid_by
          FROM (SELECT f.*,
                       CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL
                            WHEN s17_sale THEN sale_proceeds - take_expenses - take_feeding - take_fines - take_security
                            ELSE 0 END AS balance_to_owner_all
                FROM waterfall f) v) p
)
SELECT
    case_id, pound_id, local_authority_id, animal_class, head_count, impounded_on,
    CASE
        WHEN heads_out = 0 THEN 'in_pound'
        -- s.15(3) proviso: nothing left in the pound, and a disposal took some of it (R5)
        WHEN heads_in_pound <= 0 AND heads_disposed > 0 THEN 'disposed'
        WHEN heads_out <> head_count THEN 'mixed'
        WHEN heads_s12 = head_count THEN 'released'
        WHEN heads_s16 = head_count THEN 'released_under_protest'
        WHEN heads_court = head_count THEN 'court_release'
        WHEN heads_sold_s15 = head_count THEN 'sold_unclaimed'
        WHEN heads_sold_s17 = head_count THEN 'sold_refusal'
        WHEN heads_sold_s17 > 0 AND heads_s17_remainder > 0
             AND heads_sold_s17 + heads_s17_remainder = head_count THEN 'part_sold'
        ELSE 'mixed'
    END AS status,
    CASE WHEN heads_in_pound <= 0 THEN last_left_on END AS closed_on,
    CASE WHEN heads_in_pound > 0 THEN greatest(coalesce(longest_gone, 0), held_days(impounded_on, as_of()))
         ELSE longest_gone END AS days_charged,
    s10_fine(head_count, fine_per_head) + carried_fines AS fine_due,
    feeding_per_head_per_day * (head_days_gone + greatest(heads_in_pound, 0) * held_days(impounded_on, as_of()))
        + carried_feeding AS feeding_due,
    CASE WHEN amounts_known THEN s12_security_due + coalesce(wf_security, 0) END AS security_due,
    head_sold, sale_proceeds, sale_expenses,
    balance_to_owner_all AS balance_to_owner,
    CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL
         WHEN NOT s17_sale THEN sale_proceeds - take_expenses - take_feeding - take_fines - take_security ELSE 0 END AS surplus_unclaimed,
    CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL
         ELSE (wf_expenses - take_expenses) + (wf_feeding - take_feeding) + (wf_fines - take_fines) + (wf_security - take_security) END AS unrecovered,
    -- beyond the export contract: where each figure comes from
    taluk, district, owner_id, owner_name, w AS claim_window_days, rate_found, amounts_known, security_missing_on,
    fine_per_head, feeding_per_head_per_day, rate_source,
    heads_released, heads_in_pound, sold_on, last_sale_id, sale_officer, held_at_sale,
    heads_disposed AS head_disposed,
    -- a re-seizure (R11): the case delivered under protest, and what its deposit left unpaid, carried here
    reseizure_of, carried_fines, carried_feeding,
    wf_expenses AS sale_due_expenses, wf_feeding AS sale_due_feeding, wf_fines AS sale_due_fines,
    wf_security AS sale_due_security,
    -- the heads the s.17 security was reckoned on (those returned: R1), and one more head's security
    CASE WHEN s17_sale THEN heads_s17_remainder END AS sale_security_heads,
    wf_security_one_head AS sale_security_one_more_head,
    -- s.17(2): everything an s.17 sale had to raise, for the heads held on the sale day
    wf_expenses + wf_feeding + wf_fines + wf_security AS sale_due_total,
    take_expenses AS sale_paid_expenses,
    CASE WHEN amounts_known THEN take_feeding END AS sale_paid_feeding,
    CASE WHEN amounts_known THEN take_fines END AS sale_paid_fines,
    CASE WHEN amounts_known THEN take_security END AS sale_paid_security,
    s17_sale,
    -- R19: of the balance, what the owner took by balance_unclaimed_on (s.17(3)) and what goes to the DM
    -- that day (s.18(5)); surplus_to_dm is all the DM is to hold for the case, either kind of surplus
    CASE WHEN s17_sale THEN sold_on + w END AS balance_unclaimed_on,
    balance_paid_by AS balance_paid_to_owner, balance_unclaimed,
    surplus_unclaimed + balance_unclaimed AS surplus_to_dm,
    -- for the reports: the pound's name, the month of impounding, days from impounding to closing
    pound_name, month_of(impounded_on) AS impounded_month,
    CASE WHEN heads_in_pound <= 0 THEN CAST(last_left_on - impounded_on AS BIGINT) END AS days_to_close,
    source
FROM balance
