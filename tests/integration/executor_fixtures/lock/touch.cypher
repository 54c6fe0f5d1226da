// Test fixture (not product Cypher): write one test node, taking its write lock until commit.
MERGE (n:KgContextTestLock {id: $id})
SET n.touched = coalesce(n.touched, 0) + 1
RETURN n.id AS id
