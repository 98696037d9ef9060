-- stg_parameters: the readings in force for this build (values as JSON text; as_of as a date).
SELECT name, value, is_default FROM parameters
