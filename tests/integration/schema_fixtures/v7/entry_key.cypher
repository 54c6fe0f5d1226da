// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE INDEX entry_key IF NOT EXISTS FOR (n:Entry) ON (n.key)
