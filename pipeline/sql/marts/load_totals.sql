-- load_totals: what the accounts were built from, for the head of every page: how many register
-- and ledger files were loaded (the loads table, stg_loads), and when the last one was.
SELECT count(*) AS files, max(loaded_at) AS last_loaded_at
FROM stg_loads
