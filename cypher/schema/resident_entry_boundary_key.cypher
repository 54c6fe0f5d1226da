// Composite range index over resident entries only (the :Resident label, which the gate keeps
// in step with Entry.resident): the resident entries of one boundary under a key. The gate's
// [on_revision] read seeks it for each (class, key) slot a batch's new entries would revise, so
// its cost follows the slot's resident entries, never how often the key was revised before
// (superseded and retired entries leave the index with the label).
CREATE INDEX resident_entry_boundary_key IF NOT EXISTS FOR (n:Resident) ON (n.boundary_id, n.key)
