// Range index: Entry.key (queries filter on it).
CREATE INDEX entry_key IF NOT EXISTS FOR (n:Entry) ON (n.key)
