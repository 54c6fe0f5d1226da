// Test fixture: a rule of kg-context schema version 1 (global ids), as main shipped it.
// Uniqueness of Target.key.
CREATE CONSTRAINT target_key_unique IF NOT EXISTS FOR (n:Target) REQUIRE n.key IS UNIQUE
