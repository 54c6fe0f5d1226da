// Drop one constraint by name, if it exists: a schema rule a newer schema replaced (the data
// it constrained is untouched; schema apply creates the replacement first).
DROP CONSTRAINT $name IF EXISTS
