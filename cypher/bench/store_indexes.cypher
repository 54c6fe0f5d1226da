// Benchmark only: every index's id (its folder's name under the store's schema/index/<provider>/),
// name and type, for the scale benchmark's store breakdown.
SHOW INDEXES YIELD id, name, type
RETURN id, name, type
