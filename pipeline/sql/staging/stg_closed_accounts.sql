-- stg_closed_accounts: the monthly_accounts figures a close sealed, one row per pound and measure.
SELECT close_id, pound_id, measure, value FROM closed_accounts
