// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Uniqueness of Writer.id.
CREATE CONSTRAINT writer_id_unique IF NOT EXISTS FOR (n:Writer) REQUIRE n.id IS UNIQUE
