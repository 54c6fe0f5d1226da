// The database's kg-context schema record, if any (one seek on schema_record_id_unique): the
// schema version it holds and one `name=kind:digest` line per rule. Engine.connect() reads it.
MATCH (s:KgContextSchema {id: 'kg-context'})
RETURN s.version AS version, s.rules AS rules
