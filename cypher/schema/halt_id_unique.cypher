// Uniqueness of Halt.id.
CREATE CONSTRAINT halt_id_unique IF NOT EXISTS FOR (n:Halt) REQUIRE n.id IS UNIQUE
