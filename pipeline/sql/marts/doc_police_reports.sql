-- made as: view
-- doc_police_reports: one row per case that reached its s.15(1) report day unclaimed: the
-- report the pound-keeper sends to the police, and the s.15(2) notice and proclamation it
-- leads to. Read by `pound documents` (police_report_<case>, notice_<case>).
-- The report day is the one the accounts compute (int_case_timeline.report_due_on = D+w+1,
-- w = 7, or 3 for asses and sheep), not the day the register records. "Unclaimed": nothing
-- of the case left the pound by D+w (the last day of the claim window) and the owner did not
-- come forward and refuse to pay (an s.17 attempt), the reading of S15-REPORT-MISSING; and
-- the report day has come by as_of.
-- The paper bears the day the report was made (the register's reported_on), else the date the
-- accounts are drawn up to: a report not yet made is made now, late if its day has passed, and
-- never dated back to the day it was due. The notice is dated the day it is recorded, else the
-- paper's day (report and notice go together); the owner's w days run from the later of the notice
-- and the report (R24), and the cattle may be sold if still unclaimed from that day + w + 1
-- (s.15(3)), which is what S15-SALE-EARLY checks: the days are int_case_timeline's (notice_from,
-- window_from, sale_allowed_from). The notice has a line for each proclamation, in the village or area
-- (proclamation_on) and at the market place (market_proclamation_on, R25), with its day where recorded.
-- Where s.13 is notified for the pound's taluk on the notice's day (s13_on_notice), the notice tells the
-- owner that he must also make the declaration and deposit the security of s.13(1) to claim the cattle
-- (R31), and what the security comes to for these heads that day (security_on_notice; blank when no rate
-- row gives it).
-- Stored in no order (sorting it took up to half a second of a state's build): pound documents orders it (documents/papers.py).
WITH base AS (
    SELECT t.case_id, t.pound_id, c.pound_name, t.taluk, t.district, t.local_authority_id,
           k.name AS pound_keeper_name,
           t.animal_class, t.head_count, c.description, c.place_of_seizure, c.seized_on, t.impounded_on,
           c.owner_name, c.owner_village,
           t.w AS claim_window_days, t.claim_ends_on, t.report_due_on,
           t.reported_on, t.reported_to, t.notice_on, t.proclamation_on, t.market_proclamation_on,
           coalesce(t.reported_on, kept_as_of()) AS doc_on,
           t.notice_from, t.window_from, t.sale_allowed_from, t.notice_claim_ends_on,
           c.source
    FROM int_case_timeline t
    JOIN int_cases c USING (case_id)
    LEFT JOIN stg_officials k ON k.person_id = c.pound_keeper_id
    WHERE NOT t.owner_appeared
      AND (t.first_left_on IS NULL OR t.first_left_on > t.claim_ends_on)
      AND t.report_due_on <= kept_as_of()
)
SELECT
    case_id, pound_id, pound_name, taluk, district, local_authority_id, pound_keeper_name,
    animal_class, head_count, description, place_of_seizure, seized_on, impounded_on,
    owner_name, owner_village, claim_window_days, claim_ends_on,
    doc_on, report_due_on, doc_on > report_due_on AS made_late,
    coalesce(reported_to, 'The officer in charge of the police station nearest to ' || pound_name)
        AS addressed_to,
    reported_on, reported_to, notice_on, proclamation_on, market_proclamation_on,
    notice_from,
    notice_on IS NOT NULL AS notice_recorded,
    notice_claim_ends_on,
    sale_allowed_from,
    notified('13', taluk, notice_from) AS s13_on_notice,
    CASE WHEN notified('13', taluk, notice_from)
         THEN s13_security(head_count, animal_class, taluk, notice_from) END AS security_on_notice,
    month_of(doc_on) AS month,
    source
FROM base
