// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE INDEX entry_status IF NOT EXISTS FOR (n:Entry) ON (n.status)
