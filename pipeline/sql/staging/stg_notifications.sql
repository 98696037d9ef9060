-- stg_notifications: the s.13 and s.14 notifications with prefixed column names,
-- so the macro notified() can never confuse them with a caller's own columns.
SELECT section AS n_section, lower(taluk) AS n_taluk, effective_from AS n_from, effective_to AS n_to
FROM notifications
