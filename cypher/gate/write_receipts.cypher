// Receipts (review, commit, halt, rejection, resolution): (:Receipt)-[:FOR]->(:Set), each with
// a label for its kind as well (:CommitReceipt, ...) for Neo4j Browser's style.
UNWIND $receipts AS row
MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
CREATE (r:Receipt:$(toUpper(left(row.props.kind, 1)) + substring(row.props.kind, 1) + 'Receipt'))
SET r = row.props
CREATE (r)-[:FOR]->(s)
