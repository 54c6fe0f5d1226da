// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Uniqueness of Entry.id.
CREATE CONSTRAINT entry_id_unique IF NOT EXISTS FOR (n:Entry) REQUIRE n.id IS UNIQUE
