-- Macros of the intermediate layer: they look up notifications and rates in the
-- staging tables, so they are made once those exist, before the models that use them.

-- Whether section sec (13 or 14) is applied by notification to taluk tlk on day d.
-- It reads stg_notifications, whose columns are prefixed: a macro's subquery
-- must not share a column name with the caller's tables, or the caller's
-- argument would bind to the subquery's column instead.
CREATE OR REPLACE TEMP MACRO notified(sec, tlk, d) AS EXISTS (
    SELECT 1 FROM stg_notifications
    WHERE n_section = sec AND (n_taluk = lower(tlk) OR n_taluk = '*')
      AND n_from <= d AND (n_to IS NULL OR d <= n_to));

-- Security per head (paise) in force for a class and taluk on day d (s.13(1)); a named taluk wins over '*'.
CREATE OR REPLACE TEMP MACRO security_rate(cls, tlk, d) AS (
    SELECT r_security FROM stg_rate_rows
    WHERE r_class = cls AND (r_taluk = lower(tlk) OR r_taluk = '*')
      AND r_from <= d AND (r_to IS NULL OR d <= r_to)
    ORDER BY (r_taluk <> '*') DESC LIMIT 1);

-- s.13(1): the security due for `heads` delivered on day d: the rate in force that day
-- where s.13 is notified for the taluk, else nothing; NULL when notified but no rate row applies.
CREATE OR REPLACE TEMP MACRO s13_security(heads, cls, tlk, d) AS
    CASE WHEN notified('13', tlk, d) THEN heads * security_rate(cls, tlk, d) ELSE 0 END;
