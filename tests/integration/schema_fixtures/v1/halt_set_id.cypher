// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Range index: the halts of a set.
CREATE INDEX halt_set_id IF NOT EXISTS FOR (n:Halt) ON (n.set_id)
