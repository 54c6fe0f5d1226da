// Range index: Entry.resident (queries filter on it).
CREATE INDEX entry_resident IF NOT EXISTS FOR (n:Entry) ON (n.resident)
