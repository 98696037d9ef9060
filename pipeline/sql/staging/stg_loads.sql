-- stg_loads: what was loaded, from which file, and when (and the date its bundle's bundle.toml gives).
SELECT load_id, file, register, sha256, rows, new_rows, loaded_at, status, bundle, bundle_as_of
FROM loads
