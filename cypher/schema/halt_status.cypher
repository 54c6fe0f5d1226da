// Range index: Halt.status (queries filter on it).
CREATE INDEX halt_status IF NOT EXISTS FOR (n:Halt) ON (n.status)
