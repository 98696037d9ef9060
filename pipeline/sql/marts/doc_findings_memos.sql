-- made as: view
-- doc_findings_memos: one row per finding waiting for a decision (open, or reopened after a
-- correction), addressed to the official whose duty the finding is about, and filed by the month of
-- its event: the memo the DM's office sends for explanation. One memo per official and month
-- (addressee_key, month). Read by `pound documents` (findings_memo_<addressee_key>_<month>). Whose duty:
--   a sale's findings (subject a sale): the officer who conducted it (sales.conducted_by; s.15(3),
--     s.17(1), s.19(1)), an s.17 sale with no appearance of the owner behind it too (S17-PATH-UNFOUNDED, R18:
--     s.17(1) has the cattle "sold by such officer");
--   s.15(2) findings (the notice and its proclamation), and a sale of unclaimed cattle not yet held
--     (S15-SALE-OVERDUE: s.15(3) has them sold "by the said officer", R13), or sold late (S15-SALE-LATE,
--     R20 of the fourth reading): the officer the report was
--     made to (police_reports.reported_to: when it names a person_id of officials.csv, that person by
--     name and role; else the text the register writes); heads left in the pound after the case was
--     acted on (HEADS-LEFT-IN-POUND, R26) too, where the case was reported, else its pound-keeper;
--   s.14 findings (subject an order): the Tahsildar of the order's taluk (s.14(1)); officials.csv
--     has no taluk column, so a tahsildar there is his taluk's when his name holds the taluk's name,
--     else the memo goes to the title, "Tahsildar, <taluk> taluk" (an order dated after the as-of
--     date, a DQ-FUTURE-DATE finding, is not among the accounts' orders: "the Tahsildar who issued" it);
--   a local fund credit overdue (LF-CREDIT-OVERDUE, R30 of the fourth reading): whoever held the money
--     that was not credited (s.18(1), s.18(2)): for fines collected at a release, or taken from a deposit
--     under protest, the pound's keeper (pounds.csv, by name); for fines that came only from a sale, and
--     for a sale's surplus, the officer who conducted the case's last accepted sale; the accounts officer
--     of the local authority, whose ledger should show the credit, is named as a copy (copy_to);
--   ledger findings (an entry of a local fund or of the DM's deposit): the accounts officer of that
--     local authority, or of the District Magistrate's office; a surplus credited before the DM's six
--     months ran out (DM-SURPLUS-CREDITED-EARLY, R21) is the DM's office's too, whichever ledger
--     entered it, since his deposit decides when it may go; so is a refund to a claimant on no claim
--     preferred and established in time (DM-CLAIM-OUT-OF-TIME, R23), which his office paid out of the
--     deposit. The DM's accounts section is named by a person of officials.csv of role dm_accounts in
--     the finding's district, where there is one (the first by person_id), else by title;
--   a surplus the DM never received (DM-RECEIPT-OVERDUE): the officer who conducted the case's accepted
--     sale, who is to send it (s.18(5));
--   everything else: the pound-keeper of the finding's pound (a finding with no pound and none of
--     the duties above has no one to explain it, and no memo).
-- Stored in no order (sorting it took up to half a second of a state's build): pound documents orders it (documents/papers.py).
WITH sales AS (
    -- the attempts in force made by the as-of date, as stg_sales has them (a view of the build alone)
    SELECT sale_id, case_id, sale_on, accepted, conducted_by FROM current_sales() r
    WHERE NOT void AND own_day_sales(r) <= kept_as_of()
),
waiting AS (
    SELECT f.*,
           CASE WHEN f.subject_kind = 'sale' THEN 'sale_officer'
                WHEN f.rule_id = 'DM-RECEIPT-OVERDUE' THEN 'surplus_sender'
                WHEN f.rule_id IN ('DM-SURPLUS-CREDITED-EARLY', 'DM-CLAIM-OUT-OF-TIME') THEN 'dm_accounts'
                -- R30: the fines a pound-keeper collected (at a release, or from a deposit under protest)
                -- are his to account for; a sale's fines and its surplus the sale officer's
                WHEN f.rule_id = 'LF-CREDIT-OVERDUE' THEN
                     CASE WHEN f.subject_id LIKE '%:fines' AND f.case_id IN (
                               SELECT case_id FROM int_releases WHERE fines_paid > 0
                               UNION ALL
                               SELECT case_id FROM fund_movements WHERE section = '18(2)'
                                  AND from_account = 'protest_deposit_held' AND amount > 0)
                          THEN 'pound_keeper' ELSE 'credit_seller' END
                WHEN f.section LIKE '15(2)%' OR f.rule_id IN ('S15-SALE-OVERDUE', 'S15-SALE-LATE') THEN 'police'
                -- R26: heads left unsold are the selling officer's, the one the report went to; with no
                -- report since (a part released, the rest never reported), the pound-keeper's
                WHEN f.rule_id = 'HEADS-LEFT-IN-POUND' AND f.case_id IN (
                          SELECT case_id FROM stg_police_reports WHERE reported_on IS NOT NULL) THEN 'police'
                WHEN f.subject_kind = 'order' OR f.section LIKE '14%' THEN 'tahsildar'
                WHEN f.subject_kind = 'local_fund_entry' THEN 'local_accounts'
                WHEN f.subject_kind = 'dm_deposit_entry' THEN 'dm_accounts'
                ELSE 'pound_keeper' END AS duty
    FROM findings f
    WHERE f.review_status IN ('open', 'reopened')
),
addressed AS (
    SELECT w.*, p.pound_name, coalesce(p.taluk, o.taluk) AS taluk, la.district AS la_district,
           la.local_authority_name AS la_name,
           CASE w.duty
               WHEN 'sale_officer' THEN coalesce(so.person_id, 'sale-officer-' || w.subject_id)
               WHEN 'surplus_sender' THEN coalesce(ss.person_id, 'sale-officer-' || ac.sale_id)
               WHEN 'credit_seller' THEN coalesce(ss.person_id, 'sale-officer-' || coalesce(ac.sale_id, 'of-' || w.case_id))
               WHEN 'police' THEN coalesce(po.person_id, 'police-' || coalesce(pr.reported_to, w.case_id))
               WHEN 'tahsildar' THEN coalesce(th.person_id, 'tahsildar-' || coalesce(o.taluk, 'of-' || w.subject_id))
               WHEN 'local_accounts' THEN 'accounts-' || coalesce(w.local_authority_id, lf.local_authority_id)
               WHEN 'dm_accounts' THEN coalesce(da.person_id, 'accounts-DM-' || coalesce(w.district, la.district, ''))
               ELSE coalesce(p.pound_keeper_id, 'pound-keeper-' || w.pound_id) END AS addressee_key,
           CASE w.duty
               WHEN 'sale_officer' THEN so.name
               WHEN 'surplus_sender' THEN ss.name
               WHEN 'credit_seller' THEN ss.name
               WHEN 'police' THEN coalesce(po.name, pr.reported_to)
               WHEN 'tahsildar' THEN th.name
               WHEN 'dm_accounts' THEN da.name
               WHEN 'pound_keeper' THEN pk.name END AS addressee_name,
           CASE w.duty
               WHEN 'sale_officer' THEN CASE WHEN so.person_id IS NULL THEN 'Officer who conducted sale ' || w.subject_id
                                             ELSE 'Sale officer' END
               WHEN 'surplus_sender' THEN CASE WHEN ss.person_id IS NULL THEN 'Officer who conducted sale ' || ac.sale_id
                                               ELSE 'Sale officer' END
                                          || ', who is to send the surplus to the District Magistrate (s.18(5))'
               WHEN 'credit_seller' THEN coalesce(CASE WHEN ss.person_id IS NULL THEN 'Officer who conducted sale ' || ac.sale_id
                                                       ELSE 'Sale officer' END, 'Officer who conducted the sale of case ' || w.case_id)
                                         || ', who held the money to be credited to the local fund'
               WHEN 'police' THEN 'Officer in charge, to whom the report under s.15(1) was made'
               WHEN 'tahsildar' THEN coalesce('Tahsildar, ' || o.taluk || ' taluk',
                                              'Tahsildar who issued order ' || w.subject_id)
               WHEN 'local_accounts' THEN 'Accounts officer, ' || coalesce(la.local_authority_name, lf.local_authority_id)
               WHEN 'dm_accounts' THEN 'Accounts officer, office of the District Magistrate'
                                       || coalesce(', ' || coalesce(w.district, la.district), '')
               ELSE 'Pound-keeper, ' || p.pound_name END AS addressee_role
    FROM waiting w
    LEFT JOIN stg_pounds p ON p.pound_id = w.pound_id
    LEFT JOIN stg_officials pk ON pk.person_id = p.pound_keeper_id
    LEFT JOIN sales s ON w.duty = 'sale_officer' AND s.sale_id = w.subject_id
    LEFT JOIN stg_officials so ON so.person_id = s.conducted_by
    -- the case's last accepted sale, whose officer is to send its surplus to the DM
    LEFT JOIN (SELECT case_id, arg_max(sale_id, sale_on) AS sale_id, arg_max(conducted_by, sale_on) AS conducted_by
               FROM sales WHERE accepted GROUP BY case_id) ac
           ON w.duty IN ('surplus_sender', 'credit_seller') AND ac.case_id = w.case_id
    LEFT JOIN stg_officials ss ON ss.person_id = ac.conducted_by
    LEFT JOIN stg_police_reports pr ON w.duty = 'police' AND pr.case_id = w.case_id
    LEFT JOIN stg_officials po ON po.person_id = pr.reported_to
    LEFT JOIN stg_removal_orders o ON w.duty = 'tahsildar' AND o.order_id = w.subject_id
    LEFT JOIN (SELECT taluk, min(t.person_id) AS person_id, arg_min(t.name, t.person_id) AS name
               FROM (SELECT DISTINCT taluk FROM stg_removal_orders) k
               JOIN stg_officials t ON t.role = 'tahsildar'
                AND ' ' || lower(t.name) || ' ' LIKE '% ' || lower(k.taluk) || ' %'
               GROUP BY taluk) th ON lower(th.taluk) = lower(o.taluk)
    -- a ledger entry's local authority as its ledger gives it (a finding of an entry dated ahead names none)
    -- (its row in force, whatever its date: the local fund's rows of stg_dated_rows)
    LEFT JOIN (SELECT entry_id, local_authority_id FROM current_local_fund() WHERE NOT void) lf
           ON w.duty = 'local_accounts' AND lf.entry_id = w.subject_id
    LEFT JOIN stg_local_authorities la ON la.local_authority_id = coalesce(w.local_authority_id, lf.local_authority_id)
    -- the accounts section of the District Magistrate's office, by name where officials.csv has one
    LEFT JOIN (SELECT lower(district) AS district, min(person_id) AS person_id, arg_min(name, person_id) AS name
               FROM stg_officials WHERE role = 'dm_accounts' GROUP BY ALL) da
           ON w.duty = 'dm_accounts' AND da.district = lower(coalesce(w.district, la.district))
)
SELECT addressee_key, month, addressee_name, addressee_role,
       coalesce(addressee_name || ', ', '') || addressee_role AS addressee,
       duty, pound_id, pound_name, taluk, coalesce(district, la_district) AS district,
       rule_id, section, severity, severity_rank, subject_kind, subject_id, case_id,
       event_on, detail, days_open, review_status,
       -- copy_to: who else the finding is sent to, named on the memo (R30: the local authority's accounts
       -- officer, for a credit its ledger does not show)
       CASE WHEN rule_id = 'LF-CREDIT-OVERDUE'
            THEN 'Accounts officer, ' || coalesce(la_name, local_authority_id) END AS copy_to,
       event_on AS doc_on
FROM addressed
WHERE duty <> 'pound_keeper' OR pound_id IS NOT NULL
