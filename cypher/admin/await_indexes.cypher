// Wait until every index is online (after schema apply).
CALL db.awaitIndexes($timeout_s)
