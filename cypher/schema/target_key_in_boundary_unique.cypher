// Uniqueness of Target.key within its boundary: (boundary_id, key); a target is a node of its
// boundary, so nothing is shared (or locked) across boundaries.
CREATE CONSTRAINT target_key_in_boundary_unique IF NOT EXISTS
FOR (n:Target) REQUIRE (n.boundary_id, n.key) IS UNIQUE
