-- Macros shared by every layer; none reads a table (those that look up notifications
-- and rates are in intermediate/_macros.sql). The money formatters (rupees(), paise_text(), rs() and
-- the two they call), add_months(), case_ref(), month_of() and day_text() are kept in the database
-- for ad-hoc SQL, notebooks and the papers' views (doc_*, computed when pound documents reads them);
-- the rest exist only while the models are built, most of them reading this run's parameters
-- (getvariable), which a later connection does not have.

-- Paise as rupee text with exactly two decimals, the whole rupees grouped in the Indian way
-- (lakhs and crores in twos) or not: 12000050 -> '120000.50', grouped '1,20,000.50'; NULL stays
-- NULL. The one SQL money formatter, as core/money.py paise_text is the one in Python:
-- rupees() writes the CSV files' amounts, rs() the sums in finding details and papers.
--   rupee_text   DuckDB's own text of the amount as an exact DECIMAL of two places (paise times
--                0.01): the sign, the whole rupees and two decimals, for any BIGINT of paise
--   indian_text  that text grouped: reversed, cut by one regular expression into the paise, the
--                point and the last three digits, then pairs (up to 17 digits, more than a BIGINT
--                of paise holds), the commas left over before the end or the sign taken out, and
--                put back
-- Each names its argument once: DuckDB binds a macro's argument again wherever the body names it,
-- and binding, not computing, is what a district's models spend their time on (rs() is in 30 rules).
CREATE OR REPLACE MACRO rupee_text(p) AS
    CAST(CAST(p AS DECIMAL(38, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS VARCHAR);
CREATE OR REPLACE MACRO indian_text(t) AS
    reverse(regexp_replace(regexp_replace(reverse(t),
                                          '^(\d\d\.\d{1,3})(\d\d?)?(\d\d?)?(\d\d?)?(\d\d?)?(\d\d?)?(\d\d?)?(\d\d?)?',
                                          '\1,\2,\3,\4,\5,\6,\7,\8'), ',+(-?)$', '\1'));
CREATE OR REPLACE MACRO paise_text(p, grouping) AS
    CASE WHEN grouping THEN indian_text(rupee_text(p)) ELSE rupee_text(p) END;
-- The CSV files' amounts: a DECIMAL(18, 2), cheaper than the 38 digits above (a third of the time
-- over a state's million cases), where the amount fits one (under 10^16 paise).
CREATE OR REPLACE MACRO rupees(p) AS
    CASE WHEN p BETWEEN -9999999999999999 AND 9999999999999999
         THEN CAST(CAST(p AS DECIMAL(18, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS VARCHAR)
         ELSE rupee_text(p) END;

-- Calendar months, clamped to the month's end (s.13(2), s.18(5); parameter month_arithmetic).
CREATE OR REPLACE MACRO add_months(d, n) AS CAST(d + to_months(CAST(n AS INTEGER)) AS DATE);

-- w of s.15: the claim (and notice) window, in days after the start day: the short one
-- (s.15(1) proviso) or the usual one, a day less where the first day is counted.
CREATE OR REPLACE TEMP MACRO window_days(short) AS
    (CASE WHEN short THEN getvariable('claim_days_short') ELSE getvariable('claim_days') END)
    - (CASE WHEN getvariable('count_first_day') THEN 1 ELSE 0 END);
-- w of a class.
CREATE OR REPLACE TEMP MACRO claim_window(cls) AS window_days(list_contains(getvariable('short_classes'), cls));
-- s.15: a window of w days runs on its start day S + 1 .. S + w; the step that follows it (the
-- report, the sale) falls on S + notice_run(w). The one place the "+ 1" is written.
CREATE OR REPLACE TEMP MACRO notice_run(w) AS w + 1;
-- The s.15 days, each written here once and read by the timeline (int_case_timeline), the
-- deadlines (deadlines, deadline_kinds) and the papers (doc_police_reports) alike. d is the
-- impounding day (or 0, for the number of days after it), n the day the owner's w days start
-- from after the notice (or 0), w the class's window.
--   s15_claim_end: the last day the owner may claim before the report (s.15(1)): D + w;
--   s15_report_due: the report to the police is due the day after (s.15(1)): D + w + 1;
--   s15_notice_end: the last day of the notice's window (s.15(2)): N + w;
--   s15_sale_allowed: the earliest day of the auction (s.15(3)): N + w + 1.
CREATE OR REPLACE TEMP MACRO s15_claim_end(d, w) AS d + w;
CREATE OR REPLACE TEMP MACRO s15_report_due(d, w) AS d + notice_run(w);
CREATE OR REPLACE TEMP MACRO s15_notice_end(n, w) AS n + w;
CREATE OR REPLACE TEMP MACRO s15_sale_allowed(n, w) AS n + notice_run(w);

-- Days of feeding charged for a head impounded on d0 that leaves on d1 (s.12, s.17(2)).
CREATE OR REPLACE TEMP MACRO held_days(d0, d1) AS
    greatest(CAST(d1 - d0 AS BIGINT) + (CASE WHEN getvariable('feeding_days') = 'nights' THEN 0 ELSE 1 END), 0);

-- s.10(1): the fine for `heads` head at the rate per head; levied once per head, not per day.
CREATE OR REPLACE TEMP MACRO s10_fine(heads, fine_per_head) AS heads * fine_per_head;

-- s.12(1), s.17(2): feeding and watering of `heads` head impounded on d0 and leaving on d1.
CREATE OR REPLACE TEMP MACRO feeding_charge(heads, per_day, d0, d1) AS heads * per_day * held_days(d0, d1);

-- The sale waterfall (s.15(3), s.17(2)), run once per accepted sale attempt (R22 of the fourth
-- reading): what the dues placed before `item` add up to, and what `item` takes of proceeds p.
-- The four dues of waterfall_order come first in its order; overdue feeding o (R20: feeding for the
-- days after the sale fell due, s.15(3)) always comes after them, at position 5, before the surplus.
CREATE OR REPLACE TEMP MACRO wf_pos(item) AS coalesce(list_position(getvariable('waterfall_order'), item), 5);
CREATE OR REPLACE TEMP MACRO wf_before(item, e, f, fi, s, o) AS
      (CASE WHEN wf_pos('expenses') < wf_pos(item) THEN e ELSE 0 END)
    + (CASE WHEN wf_pos('feeding')  < wf_pos(item) THEN f ELSE 0 END)
    + (CASE WHEN wf_pos('fines')    < wf_pos(item) THEN fi ELSE 0 END)
    + (CASE WHEN wf_pos('security') < wf_pos(item) THEN s ELSE 0 END)
    + (CASE WHEN wf_pos('overdue')  < wf_pos(item) THEN o ELSE 0 END);
-- An unknown due (no rate) leaves every take after it unknown: least() and greatest()
-- would otherwise skip the NULL and hand its money to the next due.
-- waterfall_order = "pro_rata" (waterfall_pro_rata): proceeds short of the dues T = e+f+fi+s+o are
-- shared so that each due takes p/T of itself (overdue feeding one more due, R20); in paise each take
-- is the rounded share of the dues up to and including it less the rounded share of those before it,
-- so the takes add up to p exactly and each is within a paisa of its share.
CREATE OR REPLACE TEMP MACRO wf_share(upto, p, t) AS
    CAST((CAST(upto AS HUGEINT) * p * 2 + t) // (CAST(t AS HUGEINT) * 2) AS BIGINT);
CREATE OR REPLACE TEMP MACRO wf_take(item, due, p, e, f, fi, s, o) AS
    CASE WHEN due IS NULL OR wf_before(item, e, f, fi, s, o) IS NULL THEN NULL
         WHEN getvariable('waterfall_pro_rata') AND p < e + f + fi + s + o
              THEN wf_share(wf_before(item, e, f, fi, s, o) + due, p, e + f + fi + s + o)
                   - wf_share(wf_before(item, e, f, fi, s, o), p, e + f + fi + s + o)
         ELSE least(due, greatest(p - wf_before(item, e, f, fi, s, o), 0)) END;

-- A sum in a finding's detail, as the pages write it: 'Rs 1,20,000.00' (a missing sum as 0).
CREATE OR REPLACE MACRO rs(p) AS 'Rs ' || indian_text(rupee_text(coalesce(p, 0)));
-- A reference to a case as the models compare it: trimmed and case folded. Staging gives every
-- table with a case id or a ledger reference a case_ref column made by it, and the models join on
-- case_ref: 'M-2610-001' is ' m-2610-001 ' in a ledger.
CREATE OR REPLACE MACRO case_ref(r) AS lower(trim(r));
CREATE OR REPLACE TEMP MACRO as_of() AS CAST(getvariable('as_of') AS DATE);

-- A day in the text of a finding, a deadline or a cause, as the pages write a date: 19-10-2026.
CREATE OR REPLACE MACRO day_text(d) AS strftime(CAST(d AS DATE), '%d-%m-%Y');

-- The month of a day, as the reports and monthly_accounts write it: 2026-10.
CREATE OR REPLACE MACRO month_of(d) AS strftime(d, '%Y-%m');

-- The figures of a finding's detail: its sums, counts and ids, in order, leaving out its days (a
-- detail may say "still in the pound on <the as-of date>", which moves with every build). A decision
-- recorded with the detail as it stood (finding_detail) was made on other figures when these differ
-- from the finding's now; one recorded without it, when a correction loaded after the decision
-- changed a figure of the row it is about (int_finding_reviews.corrected_after). A name in the
-- detail may be corrected without reopening it.
CREATE OR REPLACE TEMP MACRO figures_of(t) AS
    regexp_extract_all(regexp_replace(t, '[0-9]{2}-[0-9]{2}-[0-9]{4}', '', 'g'), '[0-9]+(?:[.,][0-9]+)*');
CREATE OR REPLACE TEMP MACRO other_figures(decided_detail, detail_now, corrected_after) AS
    CASE WHEN decided_detail IS NOT NULL THEN figures_of(decided_detail) <> figures_of(detail_now)
         ELSE coalesce(corrected_after, false) END;
