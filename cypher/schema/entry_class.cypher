// Range index: Entry.class (queries filter on it).
CREATE INDEX entry_class IF NOT EXISTS FOR (n:Entry) ON (n.class)
