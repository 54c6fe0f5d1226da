// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Uniqueness of Set.id.
CREATE CONSTRAINT set_id_unique IF NOT EXISTS FOR (n:Set) REQUIRE n.id IS UNIQUE
