// The second of the gate's two write statements, in the same transaction as
// gate/write_plan.cypher (which wrote the sets, entries and edges first): each decided set's
// receipts FOR it, sealed into the ledger (kg_context/gate/pure/ledger.py: each record's
// position on its receipts and halt, its digest, the previous one and its parts on its outcome
// receipt), with the receipt's kind as a label too (:CommitReceipt, ...); the typed halts, open
// for an operator: (:Halt:Open)-[:ON]->(:Set) (the status label is for Neo4j Browser's style;
// resolving a halt makes it :Resolved); and the ledger's head: the position and digest of the
// last record, and the seq the chain began after (set once). No $sealed.ledger_pos: no head (a
// measurement without the ledger). Receipts are never changed after this.
// What it writes travels in one map ($sealed): Neo4j plans a statement once per parameter
// type, a map's size never counted (kg_context/db/catalog.py).
CALL () {
  UNWIND $sealed.receipts AS row
  MATCH (s:Set {boundary_id: $boundary_id, id: row.set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  CREATE (receipt:Receipt:$(toUpper(left(row.props.kind, 1)) + substring(row.props.kind, 1)
                            + 'Receipt'))
  SET receipt = row.props
  CREATE (receipt)-[:FOR]->(s)
}
CALL () {
  UNWIND $sealed.halts AS halt
  MATCH (s:Set {boundary_id: $boundary_id, id: halt.set_id})
    USING INDEX SEEK s:Set(boundary_id, id)
  CREATE (h:Halt:Open)
  SET h = halt.props
  CREATE (h)-[:ON]->(s)
}
MATCH (b:Boundary {id: $boundary_id})
WHERE $sealed.ledger_pos IS NOT NULL
SET b.ledger_pos = $sealed.ledger_pos, b.ledger_head = $sealed.ledger_head,
    b.ledger_since_seq = coalesce(b.ledger_since_seq, $sealed.ledger_since_seq)
