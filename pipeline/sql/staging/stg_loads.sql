-- stg_loads: what was loaded, from which file, and when.
SELECT load_id, file, register, sha256, rows, new_rows, loaded_at, status, bundle
FROM loads
