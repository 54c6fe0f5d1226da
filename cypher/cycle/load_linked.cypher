// Entries of one boundary by id, for the preconscious buffer (recurrent link activation and recall
// by id): one batched read. Entries whose status is in $exclude_statuses (every non-standing
// status: superseded, retired, invalidated, explored) are left out: those reach the cycle only as
// recall copies the gate admitted (cycle._recall). linked_ids: the entry's explicit outgoing
// links in the same boundary (REQUIRES, DERIVED_FROM, SUMMARIZES), sorted.
// Each id is sought through the (boundary_id, id) uniqueness index (a WHERE on the list let the
// planner pick the boundary_id index and filter a large boundary).
UNWIND $ids AS entry_id
MATCH (e:Entry {boundary_id: $boundary_id, id: entry_id})
  USING INDEX SEEK e:Entry(boundary_id, id)
WHERE NOT e.status IN $exclude_statuses
OPTIONAL MATCH (e)-[:REQUIRES|DERIVED_FROM|SUMMARIZES]->(t)
WHERE t.boundary_id = $boundary_id
WITH e, t ORDER BY t.id
WITH e, collect(DISTINCT t.id) AS linked_ids
// An admitted recall copy: a scratch entry of a ratified recall set, DERIVED_FROM its original.
// Its tag is read from the graph (the original's status now, its set, its superseder, the
// commit receipt that admitted the copy), never from attributes a writer supplied.
CALL (e) {
  WITH e WHERE e.class = $scratch_class
  // the copy's own set, found from the copy (one CONTAINS edge), never by a scan
  MATCH (s)-[:CONTAINS]->(e)-[:DERIVED_FROM]->(o)
  WHERE s.boundary_id = $boundary_id AND s.kind = $recall_kind AND o.boundary_id = $boundary_id
  OPTIONAL MATCH (receipt)-[:FOR]->(s)
  WHERE receipt.kind = $commit_kind
  OPTIONAL MATCH (newer:Entry)-[:SUPERSEDES]->(o)
  WITH s, o, receipt, newer ORDER BY newer.set_seq DESC, newer.id
  WITH s, o, receipt, collect(newer.id)[0] AS superseded_by
  RETURN collect({
    original_id: o.id, original_class: o.class, original_status: o.status,
    original_set_seq: o.set_seq, superseded_by: superseded_by, admitted_in: s.id,
    receipt_id: receipt.id
  })[0] AS recall
}
RETURN e.id AS id, e.key AS key, coalesce(e.body, '') AS body, e.class AS class,
       e.status AS status, linked_ids, recall
ORDER BY id
