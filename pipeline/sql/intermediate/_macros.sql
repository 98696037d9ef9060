-- Macros of the intermediate layer: they look up notifications, rates and the as-of date in the
-- staging tables, so they are made once those exist, before the models that use them. They are
-- kept in the database, where the papers' views (doc_*) call them when pound documents reads them.

-- Whether section sec (13 or 14) is applied by notification to taluk tlk on day d.
-- It reads stg_notifications, whose columns are prefixed: a macro's subquery
-- must not share a column name with the caller's tables, or the caller's
-- argument would bind to the subquery's column instead.
CREATE OR REPLACE MACRO notified(sec, tlk, d) AS EXISTS (
    SELECT 1 FROM stg_notifications
    WHERE n_section = sec AND (n_taluk = lower(tlk) OR n_taluk = '*')
      AND n_from <= d AND (n_to IS NULL OR d <= n_to));

-- Security per head (paise) in force for a class and taluk on day d (s.13(1)); a named taluk wins over '*'.
CREATE OR REPLACE MACRO security_rate(cls, tlk, d) AS (
    SELECT r_security FROM stg_rate_rows
    WHERE r_class = cls AND (r_taluk = lower(tlk) OR r_taluk = '*')
      AND r_from <= d AND (r_to IS NULL OR d <= r_to)
    ORDER BY (r_taluk <> '*') DESC LIMIT 1);

-- s.13(1): the security due for `heads` delivered on day d: the rate in force that day
-- where s.13 is notified for the taluk, else nothing; NULL when notified but no rate row applies.
CREATE OR REPLACE MACRO s13_security(heads, cls, tlk, d) AS
    CASE WHEN notified('13', tlk, d) THEN heads * security_rate(cls, tlk, d) ELSE 0 END;

-- The as-of date as the database keeps it (stg_parameters): as_of() for a view kept in the database,
-- which is computed when a later command reads it, after the build's variables and as_of() are gone.
CREATE OR REPLACE MACRO kept_as_of() AS (SELECT CAST(value AS DATE) FROM stg_parameters WHERE name = 'as_of');
