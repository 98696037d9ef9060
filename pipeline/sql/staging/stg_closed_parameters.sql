-- stg_closed_parameters: the readings in force when the month was closed (values as JSON text).
SELECT close_id, name, value FROM closed_parameters
