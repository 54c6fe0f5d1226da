// Test fixture (not product Cypher): how many times a test node was touched.
MATCH (n:KgContextTestLock {id: $id})
RETURN n.touched AS touched
