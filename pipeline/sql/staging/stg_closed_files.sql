-- stg_closed_files: the input files (and their sha256) that were loaded when the month was closed.
SELECT close_id, file, sha256, rows FROM closed_files
