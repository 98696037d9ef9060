-- case_accounts: one row per case: what the Act made due and what became of it.
-- fine_due = heads x fine (s.10(1)), levied once per head.
-- feeding_due = feeding per head per day x the days each head was held, to its
--   leave date, or to as_of while still in the pound (s.12(1), s.17(2)).
-- security_due = s.13(1) security for heads delivered on payment (s.12), and for an s.17
--   sale the security of the heads returned to the owner by the s17_remainder release(s),
--   at the rate on the sale day where s.13 is notified that day; none when every head was sold
--   (s.13(1) ties the security to releasing cattle; s.17(3) returns "the remaining cattle":
--   R1 of the second reading); nothing under s.15.
-- The sale waterfall (s.15(3), s.17(2)) is run once per accepted sale attempt (sale_attempt_accounts,
--   R22 of the fourth reading): each pays, from its own proceeds, its expenses, the feeding of the heads it
--   sells to its own day (or to the day the sale fell due), their fines, (s.17 only) the security, and then
--   (R20) the feeding of the days after the sale fell due (feeding_overdue); what remains is the
--   owner's balance (s.17(3)) or surplus for the DM (s.18(5)); what a due could not take is unrecovered.
--   The sale_* columns here are the sums of the case's attempts. A balance the owner does not take within w
--   days of the sale is surplus for the DM too (balance_unclaimed, R19). Heads delivered before a sale paid
--   their own dues; the s.17 remainder delivered after the sale owes its feeding from the day after, at its
--   release, and what that release did not collect is unrecovered too (R27, int_releases.after_sale_unpaid_r).
-- feeding_overdue: the part of feeding_due charged to a sale for the days after it fell due (R20).
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
remainder_unpaid AS (
    -- R27: the feeding after the s.17 sale the remainder's delivery did not collect (int_releases)
    SELECT case_id, sum(after_sale_unpaid_r) AS amount FROM int_releases WHERE basis = 's17_remainder' GROUP BY case_id
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
           coalesce(rs.carried_fines, 0) AS carried_fines, coalesce(rs.carried_feeding, 0) AS carried_feeding,
           coalesce(ru.amount, 0) AS remainder_unpaid
    FROM int_cases c
    LEFT JOIN leaves l USING (case_id)
    LEFT JOIN int_case_sales s USING (case_id)
    LEFT JOIN released_before_sale rb USING (case_id)
    LEFT JOIN s12_security s12 USING (case_id)
    LEFT JOIN int_reseizures rs USING (case_id)
    LEFT JOIN remainder_unpaid ru USING (case_id)
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
attempts AS (
    SELECT case_id, count(*) AS sale_attempts,
           sum(due_expenses) AS wf_expenses, sum(due_feeding) AS wf_feeding, sum(due_fines) AS wf_fines,
           CASE WHEN bool_and(due_security IS NOT NULL) THEN sum(due_security) END AS wf_security,
           sum(due_feeding_overdue) AS wf_overdue,
           bool_and(amounts_known) AS attempts_known,
           sum(paid_expenses) AS take_expenses, sum(paid_feeding) AS take_feeding, sum(paid_fines) AS take_fines,
           sum(paid_security) AS take_security, sum(paid_feeding_overdue) AS take_overdue,
           sum(surplus_unclaimed) AS surplus_all, sum(balance_to_owner) AS balance_all,
           sum(balance_paid_to_owner) AS balance_paid_by, sum(balance_unclaimed) AS balance_unclaimed,
           sum(unrecovered) AS unrecovered_all,
           max(days_late) AS days_late
    FROM sale_attempt_accounts GROUP BY case_id
),
dues AS (
    SELECT b.*,
           a.sale_attempts, a.days_late,
           -- the dues the sales must meet, summed over the accepted attempts
           CASE WHEN b.sold THEN a.wf_expenses END AS wf_expenses,
           CASE WHEN b.sold THEN a.wf_feeding END AS wf_feeding,
           CASE WHEN b.sold THEN a.wf_fines END AS wf_fines,
           CASE WHEN b.sold AND b.s17_sale THEN a.wf_security WHEN b.sold THEN 0 END AS wf_security,
           CASE WHEN b.sold THEN a.wf_overdue END AS wf_overdue,
           a.take_expenses, a.take_feeding, a.take_fines, a.take_security, a.take_overdue,
           a.surplus_all, a.balance_all, a.unrecovered_all,
           CASE WHEN b.sold THEN a.balance_paid_by ELSE 0 END AS balance_paid_by,
           CASE WHEN b.sold THEN a.balance_unclaimed ELSE 0 END AS balance_unclaimed,
           -- S17-OVERSALE: the security of one more head returned, had one head fewer been sold
           s17.one_head AS wf_security_one_head
    FROM base b LEFT JOIN s17_security s17 USING (case_id)
    LEFT JOIN attempts a USING (case_id)
),
balance AS (
    SELECT d.*,
           CASE WHEN d.s12_security_missing_on IS NOT NULL THEN d.s12_security_missing_on
                WHEN d.sold AND d.wf_security IS NULL THEN d.sold_on END AS security_missing_on,
           d.rate_found AND d.s12_security_missing_on IS NULL AND NOT (d.sold AND d.wf_security IS NULL) AS amounts_known,
           -- R19 (s.17(3), s.17(4), s.18(5)): each s.17 attempt's balance is the owner's to take by its day + w
           -- (sale_attempt_accounts); what the register records paid by then is paid to him, the rest is
           -- surplus unclaimed proceeds for the DM, due that day
           CASE WHEN NOT d.sold THEN 0 WHEN NOT amounts_known THEN NULL ELSE d.balance_all END AS balance_to_owner_all
    FROM dues d
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
    -- R20: of feeding_due, what a sale held late charged for the days after it fell due
    CASE WHEN sold THEN wf_overdue ELSE 0 END AS feeding_overdue,
    CASE WHEN amounts_known THEN s12_security_due + coalesce(wf_security, 0) END AS security_due,
    head_sold, sale_proceeds, sale_expenses,
    balance_to_owner_all AS balance_to_owner,
    CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL ELSE surplus_all END AS surplus_unclaimed,
    -- what the sales could not take, and (R27) the feeding after an s.17 sale its remainder's delivery did not collect
    CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL ELSE unrecovered_all + remainder_unpaid END AS unrecovered,
    CASE WHEN NOT sold THEN 0 WHEN NOT amounts_known THEN NULL ELSE unrecovered_all END AS sale_unrecovered,
    remainder_unpaid AS remainder_unrecovered,
    -- beyond the export contract: where each figure comes from
    taluk, district, owner_id, owner_name, w AS claim_window_days, rate_found, amounts_known, security_missing_on,
    fine_per_head, feeding_per_head_per_day, rate_source,
    heads_released, heads_in_pound, sold_on, last_sale_id, sale_officer, held_at_sale,
    heads_disposed AS head_disposed,
    -- a re-seizure (R11): the case delivered under protest, and what its deposit left unpaid, carried here
    reseizure_of, carried_fines, carried_feeding,
    wf_expenses AS sale_due_expenses, wf_feeding AS sale_due_feeding, wf_fines AS sale_due_fines,
    wf_security AS sale_due_security, wf_overdue AS sale_due_feeding_overdue,
    -- the heads the s.17 security was reckoned on (those returned: R1), and one more head's security
    CASE WHEN s17_sale THEN heads_s17_remainder END AS sale_security_heads,
    wf_security_one_head AS sale_security_one_more_head,
    -- s.17(2): everything an s.17 sale had to raise, for the heads held on the sale day
    wf_expenses + wf_feeding + wf_fines + wf_security + wf_overdue AS sale_due_total,
    take_expenses AS sale_paid_expenses,
    CASE WHEN amounts_known THEN take_feeding END AS sale_paid_feeding,
    CASE WHEN amounts_known THEN take_fines END AS sale_paid_fines,
    CASE WHEN amounts_known THEN take_security END AS sale_paid_security,
    CASE WHEN amounts_known THEN take_overdue END AS sale_paid_feeding_overdue,
    -- R22: the accepted attempts whose sums these are; R20: the most days one was held after the sale fell due
    coalesce(sale_attempts, 0) AS sale_attempts, days_late AS sale_days_late,
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
