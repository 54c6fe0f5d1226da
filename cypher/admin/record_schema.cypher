// Record the schema version the database now holds (after `kg-context schema apply`). Never
// lowers a recorded version: an applier of an older schema leaves a newer record as it is.
MERGE (s:KgContextSchema {id: 'kg-context'})
WITH s
WHERE coalesce(s.version, 0) <= $version
SET s.version = $version, s.rules = $rules, s.digest = $digest, s.applied_at = datetime()
RETURN s.version AS version
