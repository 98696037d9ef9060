-- adjustments: how the figures of each closed month have moved since the District Magistrate
-- closed it (pound close; the close in force for the month, stg_closes). One row per figure that
-- moved, none when nothing did:
--   a monthly_accounts measure of a pound whose current value differs from the sealed one
--   (difference = current - closed; money in paise, counts in heads, cases or findings);
--   finding_raised_after_close: a finding of the month now raised that the close did not hold;
--   finding_no_longer_raised: a finding the close held that is no longer raised;
--   reconciliation <ledger> <head>: a reconciliation row of the month (subject_id: its reference)
--   whose difference (ledger - expected, paise) is not the sealed one: a new break, or one put
--   right. The difference, not the status, is compared: the as-of date alone turns pending into
--   missing.
--   page1_<figure>: a figure of page 1 the District Magistrate signed (stg_closed_page, R14) as
--   marts/page_one counts it now, the model page 1 reads: its row of the close's month and district
--   ('all' for a close of all) on the close's own as-of date, so that time running on moves neither
--   the days the oldest has waited nor the credits overdue. The row names no pound.
-- causes: what was loaded after the close that touches the month: correction rows (the
-- corrections model: rows of the month whose file the close did not hold, of the pound when the
-- row has one), late entries (first versions of rows dated in the month whose file the close did not
-- hold), and readings that changed since or are new since (the as-of date too, for findings: time runs on);
-- for a figure of page 1, which counts findings of every month up to the closed one, every file loaded
-- since the close (one the close did not hold, or held with other contents).
WITH c AS (
    SELECT * FROM stg_closes WHERE in_force
),
measures AS (
    UNPIVOT (SELECT month, pound_id, district,
                    CAST(COLUMNS(* EXCLUDE (month, pound_id, local_authority_id, taluk, district, pound_name,
                                            rollforward_ties)) AS BIGINT)
             FROM monthly_accounts)
    ON COLUMNS(* EXCLUDE (month, pound_id, district)) INTO NAME measure VALUE value
),
now_accounts AS (
    SELECT c.close_id, m.pound_id, m.measure, m.value
    FROM measures m JOIN c ON m.month = c.month AND (c.district IS NULL OR m.district = c.district)
),
accounts AS (
    SELECT coalesce(n.close_id, s.close_id) AS close_id, coalesce(n.pound_id, s.pound_id) AS pound_id,
           coalesce(n.measure, s.measure) AS measure, NULL AS rule_id, NULL AS subject_id,
           coalesce(s.value, 0) AS closed_value, coalesce(n.value, 0) AS current_value,
           NULL AS own_local_authority, NULL AS own_district
    FROM now_accounts n
    FULL JOIN (SELECT a.* FROM stg_closed_accounts a JOIN c USING (close_id)) s
      ON s.close_id = n.close_id AND s.pound_id = n.pound_id AND s.measure = n.measure
    -- a measure the accounts no longer have is not compared
    WHERE coalesce(n.measure, s.measure) IN (SELECT DISTINCT measure FROM measures)
),
now_findings AS (
    SELECT c.close_id, f.rule_id, f.subject_id, f.pound_id
    FROM findings f JOIN c ON f.month = c.month AND (c.district IS NULL OR f.district = c.district)
),
found AS (
    SELECT coalesce(n.close_id, s.close_id) AS close_id, coalesce(n.pound_id, s.pound_id) AS pound_id,
           CASE WHEN s.rule_id IS NULL THEN 'finding_raised_after_close' ELSE 'finding_no_longer_raised' END AS measure,
           coalesce(n.rule_id, s.rule_id) AS rule_id, coalesce(n.subject_id, s.subject_id) AS subject_id,
           CASE WHEN s.rule_id IS NULL THEN 0 ELSE 1 END AS closed_value,
           CASE WHEN n.rule_id IS NULL THEN 0 ELSE 1 END AS current_value,
           NULL AS own_local_authority, NULL AS own_district
    FROM now_findings n
    FULL JOIN (SELECT f.* FROM stg_closed_findings f JOIN c USING (close_id)) s
      ON s.close_id = n.close_id AND s.rule_id = n.rule_id AND s.subject_id = n.subject_id
    WHERE n.rule_id IS NULL OR s.rule_id IS NULL
),
now_recon AS (
    SELECT c.close_id, r.ledger, r.local_authority_id, r.reference, r.case_ref, r.head, r.difference, r.district
    FROM reconciliation r JOIN c ON r.period_month = c.month AND (c.district IS NULL OR r.district = c.district)
),
recon AS (
    -- a row is placed under the pound of the case its reference names, else its local authority
    SELECT coalesce(n.close_id, s.close_id) AS close_id, k.pound_id,
           'reconciliation ' || coalesce(n.ledger, s.ledger) || ' ' || coalesce(n.head, s.head) AS measure,
           NULL AS rule_id, coalesce(n.reference, s.reference) AS subject_id,
           coalesce(s.difference, 0) AS closed_value, coalesce(n.difference, 0) AS current_value,
           coalesce(n.local_authority_id, s.local_authority_id) AS own_local_authority,
           coalesce(n.district, s.district) AS own_district
    FROM now_recon n
    FULL JOIN (SELECT r.* FROM stg_closed_reconciliation r JOIN c USING (close_id)) s
      ON s.close_id = n.close_id AND s.ledger = n.ledger AND s.head = n.head
     AND s.local_authority_id IS NOT DISTINCT FROM n.local_authority_id AND s.case_ref = n.case_ref
    LEFT JOIN int_cases k ON k.case_ref = coalesce(n.case_ref, s.case_ref)
    WHERE coalesce(s.difference, 0) <> coalesce(n.difference, 0) OR (s.close_id IS NULL) <> (n.close_id IS NULL)
),
page_now AS (
    -- page 1's figures on the close's own as-of date, of its month and district (marts/page_one)
    SELECT close_id, 'page1_' || figure AS measure, value
    FROM (UNPIVOT (SELECT c.close_id, p.* EXCLUDE (as_of, month, until_month, district)
                   FROM c JOIN page_one p ON p.as_of = c.as_of AND p.month = c.month
                    AND p.district = coalesce(c.district, 'all'))
          ON COLUMNS(* EXCLUDE (close_id)) INTO NAME figure VALUE value)
),
page AS (
    SELECT s.close_id, NULL AS pound_id, s.measure, NULL AS rule_id, NULL AS subject_id,
           s.value AS closed_value, coalesce(n.value, 0) AS current_value,
           NULL AS own_local_authority, c.district AS own_district
    FROM stg_closed_page s JOIN c USING (close_id)
    LEFT JOIN page_now n ON n.close_id = s.close_id AND n.measure = s.measure
    WHERE s.value <> coalesce(n.value, 0)
),
moved AS (
    SELECT * FROM accounts WHERE closed_value <> current_value
    UNION ALL
    SELECT * FROM page
    UNION ALL
    SELECT * FROM found
    UNION ALL
    SELECT * FROM recon
),
pound_places AS (
    SELECT pound_id, local_authority_id, district FROM stg_pounds
),
corrected AS (
    SELECT c.close_id, x.pound_id, x.local_authority_id, x.district,
           'correction ' || x.file || ' row ' || x.row || ' (' || x.register || ' ' || x.key || ': '
               || string_agg(x.field || ' ' || coalesce(x.was, 'blank') || ' -> ' || coalesce(x.now, 'blank'), ', '
                             ORDER BY x.field_position)
               || coalesce('; ' || any_value(x.correction_note), '') || ')' AS cause
    FROM corrections x JOIN c ON x.event_month = c.month
         AND (c.district IS NULL OR x.district = c.district)
    -- loaded after the close: its file is not one the close held
    WHERE x.file_sha256 NOT IN (SELECT sha256 FROM stg_closed_files f WHERE f.close_id = c.close_id)
    GROUP BY c.close_id, x.pound_id, x.local_authority_id, x.district, x.file, x.row, x.register, x.key, x.version
),
late AS (
    SELECT c.close_id, coalesce(r.pound_id, k.pound_id) AS pound_id, r.local_authority_id,
           'late entry ' || r.file || ' row ' || r.row || ' (' || r.register || ' ' || r.id || ', dated '
               || day_text(r.day) || ')' AS cause
    FROM stg_dated_loads r JOIN c ON month_of(r.day) = c.month
    JOIN stg_loads ld ON ld.load_id = r.load_id
    LEFT JOIN int_cases k ON k.case_id = r.case_id
    WHERE ld.sha256 NOT IN (SELECT sha256 FROM stg_closed_files f WHERE f.close_id = c.close_id)
),
since AS (
    SELECT DISTINCT c.close_id, 'loaded since the close: ' || ld.file AS cause
    FROM c CROSS JOIN stg_loads ld
    WHERE NOT EXISTS (SELECT 1 FROM stg_closed_files f WHERE f.close_id = c.close_id AND f.sha256 = ld.sha256)
),
readings AS (
    SELECT p.close_id, p.name,
           CASE WHEN p.name = 'as_of' THEN 'accounts now drawn up to ' || q.value || ' (closed as of ' || p.value || ')'
                -- the rulings the rules follow (params.RULINGS): a later ruling moves what the close sealed
                WHEN p.name = 'rulings' THEN 'rulings since the close: ' || trim(q.value, '"')
                     || ' (closed under ' || trim(p.value, '"') || ')'
                ELSE 'parameter ' || p.name || ' changed from ' || p.value || ' to ' || q.value END AS cause
    FROM stg_closed_parameters p JOIN stg_parameters q ON q.name = p.name
    WHERE p.value IS DISTINCT FROM q.value
    UNION ALL
    -- a reading the close did not know (a parameter added since, with the rules that read it: ledger_grace
    -- and LF-CREDIT-OVERDUE, DM-RECEIPT-OVERDUE of the third reading)
    SELECT k.close_id, q.name,
           CASE WHEN q.name = 'rulings' THEN 'rulings since the close: ' || trim(q.value, '"')
                ELSE 'reading new since the close: ' || q.name || ' = ' || q.value END
    FROM (SELECT DISTINCT close_id FROM stg_closed_parameters) k CROSS JOIN stg_parameters q
    WHERE NOT EXISTS (SELECT 1 FROM stg_closed_parameters p WHERE p.close_id = k.close_id AND p.name = q.name)
),
placed AS (
    SELECT m.*, coalesce(p.district, m.own_district) AS pound_district,
           coalesce(p.local_authority_id, m.own_local_authority) AS pound_local_authority
    FROM moved m LEFT JOIN pound_places p ON p.pound_id = m.pound_id
),
causes AS (
    SELECT m.close_id, m.pound_id, m.measure, m.rule_id, m.subject_id, k.cause
    -- a correction is a cause of its own pound's figures; with no pound (a ledger entry naming no
    -- case), of its local authority's pounds; with neither (a s.14 order), of its district's
    FROM placed m JOIN corrected k ON k.close_id = m.close_id
         AND (k.pound_id = m.pound_id
              OR (k.pound_id IS NULL AND k.local_authority_id = m.pound_local_authority)
              OR (k.pound_id IS NULL AND k.local_authority_id IS NULL AND k.district IS NOT DISTINCT FROM m.pound_district))
    UNION ALL
    SELECT m.close_id, m.pound_id, m.measure, m.rule_id, m.subject_id, l.cause
    FROM placed m JOIN late l ON l.close_id = m.close_id
         AND (l.pound_id = m.pound_id OR (l.pound_id IS NULL AND l.local_authority_id = m.pound_local_authority))
    UNION ALL
    SELECT m.close_id, m.pound_id, m.measure, m.rule_id, m.subject_id, r.cause
    FROM placed m JOIN readings r ON r.close_id = m.close_id
         AND (r.name <> 'as_of' OR m.measure LIKE 'finding%' OR m.measure LIKE 'reconciliation %'
              OR m.measure LIKE 'page1_%')
    UNION ALL
    SELECT m.close_id, m.pound_id, m.measure, m.rule_id, m.subject_id, l.cause
    FROM placed m JOIN since l ON l.close_id = m.close_id AND m.measure LIKE 'page1_%'
),
named AS (
    SELECT close_id, pound_id, measure, rule_id, subject_id, string_agg(DISTINCT cause, '; ' ORDER BY cause) AS causes
    FROM causes GROUP BY ALL
),
out AS (
    SELECT c.month, coalesce(c.district, 'all') AS district, m.pound_id, m.measure,
           m.closed_value, m.current_value, m.current_value - m.closed_value AS difference,
           coalesce(n.causes, 'nothing loaded after the close touches this month') AS causes,
           m.rule_id, m.subject_id, c.closed_by, c.closed_at, c.folder AS close_folder, c.close_id,
           m.measure IN ('fines_received', 'feeding_received', 'protest_deposits', 'security_received',
                         'security_refunded', 'security_forfeited', 'sale_proceeds', 'sale_expenses_incurred',
                         'sale_expenses_deducted', 'surplus_to_dm', 'local_fund_due', 'local_fund_ledger',
                         'page1_overdue_money')
               OR m.measure LIKE 'reconciliation %' AS is_money,
           m.pound_district, m.pound_local_authority
    FROM placed m JOIN c ON c.close_id = m.close_id
    LEFT JOIN named n ON n.close_id = m.close_id AND n.pound_id IS NOT DISTINCT FROM m.pound_id AND n.measure = m.measure
         AND n.rule_id IS NOT DISTINCT FROM m.rule_id AND n.subject_id IS NOT DISTINCT FROM m.subject_id
)
-- values as the exports write them: money in rupees, counts as whole numbers; the exact
-- integers (paise for money) follow
SELECT month, district, pound_id, measure,
       CASE WHEN is_money THEN rupees(closed_value) ELSE CAST(closed_value AS VARCHAR) END AS closed_value,
       CASE WHEN is_money THEN rupees(current_value) ELSE CAST(current_value AS VARCHAR) END AS current_value,
       CASE WHEN is_money THEN rupees(difference) ELSE CAST(difference AS VARCHAR) END AS difference,
       causes,
       -- beyond the export contract
       rule_id, subject_id, closed_by, closed_at, close_folder, close_id, is_money, pound_district,
       pound_local_authority AS local_authority_id,
       closed_value AS closed_amount, current_value AS current_amount, difference AS difference_amount,
       -- as the pages write them: money with its digits grouped (1,20,000.00), counts as they are
       CASE WHEN is_money THEN paise_text(closed_value, true) ELSE CAST(closed_value AS VARCHAR) END AS closed_shown,
       CASE WHEN is_money THEN paise_text(current_value, true) ELSE CAST(current_value AS VARCHAR) END AS current_shown,
       CASE WHEN is_money THEN paise_text(difference, true) ELSE CAST(difference AS VARCHAR) END AS difference_shown
FROM out
ORDER BY month, district, pound_id, measure, rule_id, subject_id
