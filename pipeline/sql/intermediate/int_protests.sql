-- int_protests: one row per release that was a delivery under protest (s.16(1)) or took a
-- protest deposit, with the days s.16(2) turns on, each defined here once:
--   complaint_window_ends_on  R + complaint_window: the last day a complaint is in time;
--   complained_in_time        a complaint was filed by that day;
--   followup_due_on           u, the day the s.16(2) follow-up falls due: the day the seizure was
--                             declared lawful (complaint in time), or the window's end (none in
--                             time); blank while a complaint in time is pending or withdrawn
--                             (s.16(2) names only a lawful finding or no complaint);
--   followup_grace_ends_on    u + followup_grace: the follow-up not taken by then is missing;
--   resolution, resolved_on   what became of the deposit and when: held illegal (whenever the
--                             complaint was filed: back to the owner), lawful, or no complaint
--                             in time (taken as fines and charges); blank while still held.
-- fund_movements, S16-FOLLOW-UP-MISSING, S16-RESEIZURE-UNFOUNDED and deadlines read these columns.
WITH p AS (
    SELECT r.*, k.filed_on, k.decided_on, k.outcome,
           r.released_on + getvariable('complaint_window') AS complaint_window_ends_on
    FROM int_releases r LEFT JOIN stg_complaints k USING (case_id)
    WHERE r.basis = 's16_protest' OR r.protest_deposit > 0
),
t AS (
    SELECT p.*, (p.filed_on IS NOT NULL AND p.filed_on <= p.complaint_window_ends_on) AS complained_in_time
    FROM p
)
SELECT t.*,
       CASE WHEN t.complained_in_time THEN (CASE WHEN t.outcome = 'lawful' THEN t.decided_on END)
            ELSE t.complaint_window_ends_on END AS followup_due_on,
       followup_due_on + getvariable('followup_grace') AS followup_grace_ends_on,
       CASE WHEN t.outcome = 'illegal' AND t.decided_on IS NOT NULL THEN 'illegal'
            WHEN t.complained_in_time AND t.outcome = 'lawful' AND t.decided_on IS NOT NULL THEN 'lawful'
            WHEN NOT t.complained_in_time AND as_of() > t.complaint_window_ends_on THEN 'no_complaint'
       END AS resolution,
       CASE WHEN t.outcome = 'illegal' OR t.complained_in_time THEN t.decided_on
            ELSE t.complaint_window_ends_on + 1 END AS resolved_on
FROM t
