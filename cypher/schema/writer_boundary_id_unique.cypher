// Uniqueness of Writer.id.
CREATE CONSTRAINT writer_id_unique IF NOT EXISTS FOR (n:Writer) REQUIRE n.id IS UNIQUE
