-- deadlines: what the District Magistrate faces at the end of each month: cases pending at
-- the month's last day E that reach a statutory deadline on E+1 .. E+h (h = deadline_horizon),
-- where the step the deadline calls for had not been taken by E. One row per month, case
-- and deadline:
--   s.15(1) claim window ends on D+w (impounded on D; w = 7, or 3 for asses and sheep):
--           nothing of the case had left the pound and the owner had not appeared;
--   s.15(1) report to the police due on D+w+1 (+ report_grace: report_grace_ends_on): not reported by E;
--   s.15(3) auction allowed from N+w+1 after the notice N: notice given, no auction yet;
--   s.15(3) auction overdue after N+w+1+sale_grace (sale_grace_ends_on): the same, and the grace runs out;
--   s.16(2) complaint window ends on R+complaint_window after a delivery under protest on R:
--           no complaint filed by E.
-- Whether the step was taken after E does not choose the rows: the list is what the DM faced at
-- month end. by_accounts_date says what had become of each deadline by the date the accounts are
-- drawn up to (as_of), when that is later: the step taken (on time or late), not taken, or still
-- to come.
WITH events AS (
    SELECT case_id, pound_id, district, impounded_on, first_left_on, owner_appeared,
           '15(1)' AS section, 'claim window ends' AS deadline, claim_ends_on AS due_on,
           NULL::DATE AS step_on, NULL::DATE AS notice_on, head_count || ' ' || animal_class || ' impounded on ' || day_text(impounded_on)
           || '; unclaimed after this day they must be reported to the police' AS what
    FROM int_case_timeline
    UNION ALL
    SELECT case_id, pound_id, district, impounded_on, first_left_on, owner_appeared,
           '15(1)', 'report to the police due', report_grace_ends_on,
           reported_on, NULL, 'not reported by the end of the month'
    FROM int_case_timeline
    UNION ALL
    SELECT case_id, pound_id, district, impounded_on, first_left_on, owner_appeared,
           '15(3)', 'auction allowed from', sale_allowed_on,
           first_s15_attempt_on, notice_on, 'notice given on ' || day_text(notice_on) || '; no auction attempted yet'
    FROM int_case_timeline WHERE notice_on IS NOT NULL
    UNION ALL
    SELECT case_id, pound_id, district, impounded_on, first_left_on, owner_appeared,
           '15(3)', 'auction overdue after', sale_grace_ends_on,
           first_s15_attempt_on, notice_on, 'notice given on ' || day_text(notice_on) || '; no auction attempted yet'
    FROM int_case_timeline WHERE notice_on IS NOT NULL
),
s16 AS (
    SELECT r.case_id, r.pound_id, r.district, r.release_id, r.released_on, '16(2)' AS section,
           'complaint window ends' AS deadline, r.complaint_window_ends_on AS due_on,
           r.filed_on AS step_on,
           'delivered under protest on ' || day_text(r.released_on) || ' (' || r.release_id || '); no complaint filed yet' AS what
    FROM int_protests r
    WHERE r.basis = 's16_protest'
),
-- the month ends E with due_on - h <= E < due_on
ends AS (
    SELECT e.*, last_day(m) AS month_end
    FROM events e, unnest(generate_series(date_trunc('month', e.due_on - getvariable('deadline_horizon')),
                                          date_trunc('month', e.due_on - 1), INTERVAL 1 MONTH)) AS u(m)
    WHERE e.due_on IS NOT NULL
),
s16_ends AS (
    SELECT e.*, last_day(m) AS month_end
    FROM s16 e, unnest(generate_series(date_trunc('month', e.due_on - getvariable('deadline_horizon')),
                                       date_trunc('month', e.due_on - 1), INTERVAL 1 MONTH)) AS u(m)
),
due AS (
    SELECT month_end, due_on, case_id, pound_id, district, section, deadline, what, step_on
    FROM ends
    WHERE month_end >= due_on - getvariable('deadline_horizon') AND month_end < due_on
      AND impounded_on <= month_end
      -- wholly in the pound at the end of the month, the owner not come forward
      AND (first_left_on IS NULL OR first_left_on > month_end) AND NOT owner_appeared
      AND (step_on IS NULL OR step_on > month_end)
      AND (notice_on IS NULL OR notice_on <= month_end)
    UNION ALL
    SELECT month_end, due_on, case_id, pound_id, district, section, deadline, what, step_on
    FROM s16_ends
    WHERE month_end >= due_on - getvariable('deadline_horizon') AND month_end < due_on
      AND released_on <= month_end AND (step_on IS NULL OR step_on > month_end)
)
SELECT month_of(month_end) AS month, due_on, CAST(due_on - month_end AS INTEGER) AS days_after_month_end,
       case_id, pound_id, district, section, deadline, what,
       CASE WHEN deadline = 'claim window ends'
                THEN CASE WHEN due_on < as_of() THEN 'window closed on ' || day_text(due_on) ELSE 'window still open' END
            WHEN deadline = 'auction allowed from'
                THEN CASE WHEN step_on <= as_of() THEN 'first auction on ' || day_text(step_on) ELSE 'no auction yet' END
            WHEN step_on <= as_of()
                THEN CASE WHEN step_on <= due_on THEN 'done on ' || day_text(step_on) ELSE 'done late, on ' || day_text(step_on) END
            WHEN due_on < as_of() THEN 'not done by ' || day_text(as_of())
            ELSE 'still to come' END AS by_accounts_date
FROM due
ORDER BY month, due_on, case_id, section, deadline
