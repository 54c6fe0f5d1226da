// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE INDEX set_status IF NOT EXISTS FOR (n:Set) ON (n.status)
