// Benchmark baseline (not product): every node and edge the gate writes for a set, written by a
// bare UNWIND insert with no reads, checks or locks: the set (status label) IN its boundary with
// the NEXT chain, BY its writer (registered in its boundary), its review and commit receipts
// (kind label) FOR it, its proposal record IN_SET, and its entries (class, status and residency
// labels, CONTAINS, TARGETS). Shared nodes (writer, targets) are merged, as the
// gate does; everything else is created.
UNWIND $sets AS s
MATCH (b:Boundary {id: s.props.boundary_id})
CREATE (st:Set:Ratified)
SET st = s.props
CREATE (st)-[:IN]->(b)
WITH st, s
OPTIONAL MATCH (prev:Set {boundary_id: s.props.boundary_id, id: s.prev_id})
  USING INDEX SEEK prev:Set(boundary_id, id)
FOREACH (_ IN CASE WHEN prev IS NULL THEN [] ELSE [1] END | CREATE (prev)-[:NEXT]->(st))
MERGE (w:Writer {boundary_id: s.props.boundary_id, id: s.writer.id})
  ON CREATE SET w.kind = s.writer.kind, w.registered_at = s.props.closed_at,
                w.registered_seq = s.props.seq
CREATE (st)-[:BY]->(w)
FOREACH (r IN s.receipts |
  CREATE (rc:Receipt:$(toUpper(left(r.kind, 1)) + substring(r.kind, 1) + 'Receipt'))
  SET rc = r
  CREATE (rc)-[:FOR]->(st))
CREATE (p:Proposal)
SET p = s.proposal
CREATE (p)-[:IN_SET]->(st)
WITH st, s
UNWIND s.entries AS e
CREATE (n:Entry:$(e.labels))
SET n = e.props
CREATE (st)-[:CONTAINS]->(n)
FOREACH (key IN e.targets |
  MERGE (t:Target {boundary_id: n.boundary_id, key: key})
  CREATE (n)-[:TARGETS]->(t))
