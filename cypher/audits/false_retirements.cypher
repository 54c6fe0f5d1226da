// Question: Which retirements look false: entries retired by a declared transition that a later
//   set showed were still needed (a later edge on them, a recall, an invalidation walk)?
//   Candidates, not verdicts: the operator reviews them.
// Parameters:
//   $boundary_id  the boundary (a string)
// Expect: rows
MATCH (rs:Set {boundary_id: $boundary_id})-[rt:TRANSITIONED]->(e:Entry)
USING INDEX SEEK rs:Set(boundary_id)
WHERE rt.to = 'retired' AND rt.from <> 'retired'
CALL (e, rt) {
  MATCH (later:Set)-[:CONTAINS]->(child:Entry)-[r]->(e)
  WHERE later.seq > rt.seq AND type(r) IN ['DERIVED_FROM', 'REQUIRES', 'SUMMARIZES']
  RETURN {kind: CASE WHEN later.kind = 'recall' THEN 'recall' ELSE 'dependency' END,
          by: child.id, set_id: later.id, seq: later.seq, edge: type(r)} AS evidence
  UNION
  MATCH (later:Set)-[t:TRANSITIONED]->(e)
  WHERE t.seq > rt.seq AND (later.kind IN ['recall', 'invalidation'] OR t.to = 'at_risk')
  RETURN {kind: CASE WHEN later.kind = 'recall' THEN 'recall' ELSE 'invalidation' END,
          by: later.id, set_id: later.id, seq: t.seq,
          edge: 'TRANSITIONED ' + t.from + '->' + t.to} AS evidence
}
WITH e, rs, rt, collect(evidence) AS evidence
RETURN e.id AS entry_id, e.key AS key, e.class AS class, e.status AS status,
       e.resident AS resident, rt.seq AS retired_at_seq, rs.id AS retired_by_set,
       rs.writer_id AS retired_by, rt.reason AS reason, rt.case AS case,
       rt.justification AS justification,
       evidence
ORDER BY retired_at_seq, entry_id
