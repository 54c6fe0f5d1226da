// Analyst audit: candidate false retirements. Every entry retired by a declared transition (with
// the exact edges that justified it) that a later set shows was still needed: a later entry
// declares an edge on it (DERIVED_FROM, REQUIRES, SUMMARIZES; "recall" when that entry came
// back through a recall set, "dependency" otherwise), or a later invalidation walk or recall
// moved it. Candidates, not verdicts: the operator reviews them.
MATCH (rs:Set)-[rt:TRANSITIONED]->(e:Entry)
WHERE rs.boundary_id = $boundary_id AND rt.to = 'retired'
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
