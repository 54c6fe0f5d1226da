// Range index: Entry.status (queries filter on it).
CREATE INDEX entry_status IF NOT EXISTS FOR (n:Entry) ON (n.status)
