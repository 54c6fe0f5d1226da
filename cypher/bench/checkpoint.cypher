// Benchmark only: flush every dirty page of the database to its store files (a checkpoint), so
// the store's size on disk counts what the page cache held (the scale benchmark's breakdown).
CALL db.checkpoint() YIELD success
RETURN success
