// Uniqueness of Set.id.
CREATE CONSTRAINT set_id_unique IF NOT EXISTS FOR (n:Set) REQUIRE n.id IS UNIQUE
