-- stg_register_columns: the contract's columns of each register and their kinds (a seed
-- written by the loader from pipeline/core/registers.py).
SELECT register, column_name, kind, position FROM register_columns
