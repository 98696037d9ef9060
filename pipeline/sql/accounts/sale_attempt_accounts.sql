-- sale_attempt_accounts: one row per accepted sale attempt (s.15(3), s.17(2)): the waterfall of that
-- attempt's own proceeds (R22 of the fourth reading: "a head sold is no longer fed").
-- Each accepted attempt pays, in waterfall_order, out of what it brought:
--   expenses      its own expenses of sale, and those of the rejected attempts since the accepted one
--                 before it (the auction that failed was held to sell these heads); a rejected attempt
--                 after the last accepted one is charged to that last one;
--   feeding       feeding of the heads it charges for, from impounding to its own day, or, when it is
--                 held late (R20), to the day the sale fell due (sale_grace_ends_on); a re-seizure's
--                 feeding carried from the first case (R11) is charged to its first accepted attempt;
--   fines         s.10(1) fines of those heads (and the carried fines, R11, with the carried feeding);
--   security      (s.17 only, the last accepted attempt) the s.13 security of the heads returned by the
--                 s17_remainder release(s), at the rate on its day (R1);
--   overdue       (R20) feeding of those heads for the days after the sale fell due, to its own day:
--                 always after the four dues above, before the surplus, so that an officer's delay is
--                 paid out of what the sale left and never out of the local fund's fines;
-- what remains is the surplus for the DM (s.18(5)) or, for an attempt of a case with an accepted s.17
-- attempt (s17_case, as case_accounts.s17_sale reads a case), the owner's balance (s.17(3); R19: what he
-- has not taken by its day + w goes to the DM too).
-- The heads an attempt charges for are those it sells (a disposal's too, R5); the last accepted
-- attempt of an s.17 case also charges for the heads it returns to the owner, up to its own day, as
-- s.17(2) sells "so many of the cattle as may be necessary" to pay the dues of all: the heads held on its
-- day and not sold by an earlier attempt. Their feeding after the sale is charged at their release (R27).
-- A sale is late (feeding_overdue, S15-SALE-LATE) when it is an s.15 attempt of a case no owner came for
-- (int_case_timeline.owner_appeared) held after sale_allowed_on + sale_grace.
-- amounts_known: the case has its rate row, its s.12 releases their security rate, and an s.17
-- attempt's security its rate; otherwise the dues it needs and every take are blank (RATE-MISSING).
-- Each attempt's fines (18(1)) and surplus (18(5)) fall due on its own day (fund_movements).
WITH ordered AS (
    SELECT s.*,
           count(*) FILTER (WHERE s.accepted) OVER (PARTITION BY s.case_id ORDER BY s.sale_on, s.sale_id
                                                    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS accepted_upto,
           count(*) FILTER (WHERE s.accepted) OVER (PARTITION BY s.case_id) AS accepted_count
    FROM int_sales s
),
paid_by AS (
    -- the accepted attempt (its number within the case) each attempt's expenses are charged to
    SELECT o.*,
           CASE WHEN o.accepted THEN o.accepted_upto ELSE least(o.accepted_upto + 1, o.accepted_count) END AS attempt_no
    FROM ordered o WHERE o.accepted_count > 0
),
expenses AS (
    SELECT case_id, attempt_no, sum(coalesce(sale_expenses, 0)) AS expenses,
           count(*) FILTER (WHERE NOT accepted) AS rejected_attempts,
           string_agg(source, '; ' ORDER BY sale_on, sale_id) AS attempt_source
    FROM paid_by GROUP BY case_id, attempt_no
),
accepted AS (
    SELECT p.sale_id, p.case_id, p.path, p.sale_on, p.head_sold, p.proceeds, p.conducted_by,
           p.balance_paid, p.balance_paid_on, p.attempt_no, p.accepted_count,
           p.attempt_no = p.accepted_count AS last_attempt,
           coalesce(sum(p.head_sold) OVER (PARTITION BY p.case_id ORDER BY p.attempt_no
                                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS sold_before,
           e.expenses, e.rejected_attempts, e.attempt_source
    FROM paid_by p JOIN expenses e USING (case_id, attempt_no)
    WHERE p.accepted
),
case_facts AS (
    SELECT c.case_id,
           bool_or(a.path = 's17_refusal') AS s17_case,
           coalesce(max(rm.heads), 0) AS heads_s17_remainder,
           bool_and(coalesce(sm.security_known, true)) AS s12_security_known
    FROM (SELECT DISTINCT case_id FROM accepted) c
    JOIN accepted a USING (case_id)
    LEFT JOIN (SELECT case_id, sum(heads) AS heads FROM int_leaves WHERE kind = 's17_remainder' GROUP BY case_id) rm
           USING (case_id)
    LEFT JOIN (SELECT case_id, bool_and(security_rate_found) AS security_known FROM int_releases
               WHERE basis = 's12_payment' GROUP BY case_id) sm USING (case_id)
    GROUP BY c.case_id
),
heads AS (
    SELECT a.*, c.pound_id, c.local_authority_id, c.district, c.taluk, c.animal_class, c.head_count,
           c.impounded_on, c.owner_id, c.w, c.rate_found, c.fine_per_head, c.feeding_per_head_per_day,
           f.s17_case, f.heads_s17_remainder, f.s12_security_known,
           t.sale_grace_ends_on,
           a.path IN ('s15_unclaimed', 's15_disposal') AND NOT t.owner_appeared
               AND t.sale_grace_ends_on IS NOT NULL AND a.sale_on > t.sale_grace_ends_on AS late,
           -- heads released before the attempt's day (an over-release, DQ-HEADS-MISMATCH, leaves none)
           (SELECT coalesce(sum(r.head_count), 0) FROM int_releases r
            WHERE r.case_id = a.case_id AND r.released_on < a.sale_on) AS released_before,
           CASE WHEN a.attempt_no = 1 THEN coalesce(rs.carried_fines, 0) ELSE 0 END AS carried_fines,
           CASE WHEN a.attempt_no = 1 THEN coalesce(rs.carried_feeding, 0) ELSE 0 END AS carried_feeding
    FROM accepted a
    JOIN int_cases c USING (case_id)
    JOIN case_facts f USING (case_id)
    JOIN int_case_timeline t USING (case_id)
    LEFT JOIN int_reseizures rs USING (case_id)
),
dues AS (
    SELECT h.*,
           CASE WHEN h.last_attempt AND h.s17_case
                THEN greatest(h.head_count - h.released_before - h.sold_before, 0)
                ELSE h.head_sold END AS heads_charged,
           CASE WHEN h.late THEN h.sale_grace_ends_on ELSE h.sale_on END AS feeding_to,
           CASE WHEN h.late THEN CAST(h.sale_on - h.sale_grace_ends_on AS BIGINT) ELSE 0 END AS days_late
    FROM heads h
),
waterfall_dues AS (
    SELECT d.*,
           d.expenses AS wf_expenses,
           feeding_charge(d.heads_charged, d.feeding_per_head_per_day, d.impounded_on, d.feeding_to)
               + d.carried_feeding AS wf_feeding,
           s10_fine(d.heads_charged, d.fine_per_head) + d.carried_fines AS wf_fines,
           CASE WHEN d.last_attempt AND d.s17_case AND d.heads_s17_remainder > 0
                THEN s13_security(d.heads_s17_remainder, d.animal_class, d.taluk, d.sale_on) ELSE 0 END AS wf_security,
           d.heads_charged * d.feeding_per_head_per_day * d.days_late AS wf_overdue
    FROM dues d
),
known AS (
    SELECT d.*, d.rate_found AND d.s12_security_known AND d.wf_security IS NOT NULL AS amounts_known
    FROM waterfall_dues d
),
waterfall AS (
    SELECT k.*,
           wf_take('expenses', wf_expenses, proceeds, wf_expenses, wf_feeding, wf_fines, wf_security, wf_overdue) AS take_expenses,
           wf_take('feeding',  wf_feeding,  proceeds, wf_expenses, wf_feeding, wf_fines, wf_security, wf_overdue) AS take_feeding,
           wf_take('fines',    wf_fines,    proceeds, wf_expenses, wf_feeding, wf_fines, wf_security, wf_overdue) AS take_fines,
           wf_take('security', wf_security, proceeds, wf_expenses, wf_feeding, wf_fines, wf_security, wf_overdue) AS take_security,
           wf_take('overdue',  wf_overdue,  proceeds, wf_expenses, wf_feeding, wf_fines, wf_security, wf_overdue) AS take_overdue
    FROM known k
),
remaining AS (
    SELECT f.*,
           CASE WHEN NOT f.amounts_known THEN NULL
                ELSE f.proceeds - f.take_expenses - f.take_feeding - f.take_fines - f.take_security - f.take_overdue
           END AS after_dues,
           CASE WHEN NOT f.amounts_known THEN NULL WHEN f.s17_case THEN after_dues ELSE 0 END AS balance_all
    FROM waterfall f
),
balance AS (
    -- R19: of an s.17 attempt's balance, what the register records paid by its day + w (a blank day read as
    -- the sale day, up to the balance; a payment after the as-of date not made yet) is the owner's
    SELECT v.*,
           CASE WHEN v.balance_all IS NULL THEN NULL
                WHEN coalesce(v.balance_paid_on, v.sale_on) <= least(v.sale_on + v.w, as_of())
                THEN least(greatest(coalesce(v.balance_paid, 0), 0), v.balance_all) ELSE 0 END AS balance_paid_by
    FROM remaining v
)
SELECT
    sale_id, case_id, pound_id, local_authority_id, district, owner_id, path, s17_case, sale_on,
    attempt_no, last_attempt, rejected_attempts, conducted_by AS sale_officer,
    head_sold, heads_charged, proceeds AS sale_proceeds,
    -- the day the sale fell due and how many days after it this attempt was held (R20)
    CASE WHEN path IN ('s15_unclaimed', 's15_disposal') THEN sale_grace_ends_on END AS sale_due_on,
    days_late, feeding_to,
    rate_found, amounts_known,
    wf_expenses AS due_expenses, wf_feeding AS due_feeding, wf_fines AS due_fines, wf_security AS due_security,
    wf_overdue AS due_feeding_overdue,
    take_expenses AS paid_expenses,
    CASE WHEN amounts_known THEN take_feeding END AS paid_feeding,
    CASE WHEN amounts_known THEN take_fines END AS paid_fines,
    CASE WHEN amounts_known THEN take_security END AS paid_security,
    CASE WHEN amounts_known THEN take_overdue END AS paid_feeding_overdue,
    CASE WHEN NOT amounts_known THEN NULL WHEN NOT s17_case THEN after_dues ELSE 0 END AS surplus_unclaimed,
    balance_all AS balance_to_owner,
    CASE WHEN s17_case THEN sale_on + w END AS balance_unclaimed_on,
    balance_paid_by AS balance_paid_to_owner,
    balance_all - balance_paid_by AS balance_unclaimed,
    CASE WHEN NOT amounts_known THEN NULL
         ELSE (wf_expenses - take_expenses) + (wf_feeding - take_feeding) + (wf_fines - take_fines)
              + (wf_security - take_security) + (wf_overdue - take_overdue) END AS unrecovered,
    attempt_source AS source
FROM balance
