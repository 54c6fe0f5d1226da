// Everything the transaction decided, set by set, in ledger order: each set (ratified, halted
// or rejected, with its status as a label too, for Neo4j Browser's style: :Ratified, :Halted or
// :Rejected) IN its boundary and (ratified) BY its writers, registered in the boundary with
// their kind on their first ratified set, its receipts FOR it, what became of its
// proposals (status, IN_SET), and for a ratified set
// its entries (with class, status and residency labels, and declared targets) and the NEXT link from the previous
// ratified set, and its history index line (a ratified set's only: (:IndexEntry)-[:INDEXES]->(:Set),
// seed 002 section 4). Edges between entries follow in their own statements.
// Every node is looked up or merged by (boundary_id, id) (targets by (boundary_id, key)):
// writers and targets are the boundary's own nodes, so nothing here is shared across boundaries.
UNWIND $sets AS row
MATCH (b:Boundary {id: $boundary_id})
MERGE (s:Set {boundary_id: $boundary_id, id: row.id})
SET s += row.props
REMOVE s:Ratified:Halted:Rejected
SET s:$(toUpper(left(s.status, 1)) + substring(s.status, 1))
MERGE (s)-[:IN]->(b)
WITH s, row
OPTIONAL MATCH (prev:Set {boundary_id: $boundary_id, id: row.prev_id})
FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | MERGE (prev)-[:NEXT]->(s))
FOREACH (w IN row.writers |
  MERGE (writer:Writer {boundary_id: $boundary_id, id: w.id})
    ON CREATE SET writer.kind = w.kind, writer.registered_at = row.props.closed_at,
                  writer.registered_seq = row.props.seq
  MERGE (s)-[:BY]->(writer))
FOREACH (r IN row.receipts |
  CREATE (receipt:Receipt:$(toUpper(left(r.kind, 1)) + substring(r.kind, 1) + 'Receipt'))
  SET receipt = r
  CREATE (receipt)-[:FOR]->(s))
FOREACH (ix IN row.index |
  CREATE (line:IndexEntry)
  SET line = ix
  CREATE (line)-[:INDEXES]->(s))
WITH s, row
CALL (s, row) {
  UNWIND row.proposals AS decided
  MATCH (p:Proposal {boundary_id: $boundary_id, id: decided.id})
  SET p.status = decided.status, p.set_id = s.id
  MERGE (p)-[:IN_SET]->(s)
}
WITH s, row
UNWIND row.entries AS entry
CREATE (e:Entry:$(entry.labels))
SET e = entry.props
CREATE (s)-[:CONTAINS]->(e)
FOREACH (key IN entry.targets |
  MERGE (t:Target {boundary_id: $boundary_id, key: key})
  CREATE (e)-[:TARGETS]->(t))
