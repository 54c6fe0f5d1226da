// Drop one index by name, if it exists: a schema rule a newer schema replaced (no data is
// touched; schema apply creates the replacement first).
DROP INDEX $name IF EXISTS
