// Uniqueness of KgContextSchema.id: the one record of which schema version the database holds.
CREATE CONSTRAINT schema_record_id_unique IF NOT EXISTS
FOR (n:KgContextSchema) REQUIRE n.id IS UNIQUE
