// Range index: Set.status (queries filter on it).
CREATE INDEX set_status IF NOT EXISTS FOR (n:Set) ON (n.status)
