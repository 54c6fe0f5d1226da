// Uniqueness of IndexEntry.id (the history index line of a ratified set; its id is derived from
// the boundary and the set, so it is unique across the database).
CREATE CONSTRAINT index_entry_id_unique IF NOT EXISTS FOR (n:IndexEntry) REQUIRE n.id IS UNIQUE
