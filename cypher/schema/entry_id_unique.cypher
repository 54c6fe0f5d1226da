// Uniqueness of Entry.id.
CREATE CONSTRAINT entry_id_unique IF NOT EXISTS FOR (n:Entry) REQUIRE n.id IS UNIQUE
