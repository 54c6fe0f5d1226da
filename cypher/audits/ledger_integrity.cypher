// Question: Does the ledger of a boundary hold together? Its ratified sets carry the seqs 1..seq
//   once each, each with exactly one commit receipt; no halted or rejected set carries a seq;
//   every decided proposal is in a set. Each row is a boundary where one of these fails.
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: one committer per boundary, a commit is one transaction)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
CALL (b) {
  MATCH (s:Set) WHERE s.boundary_id = b.id AND s.status = 'ratified'
  RETURN count(s) AS ratified, count(DISTINCT s.seq) AS seqs, min(s.seq) AS first,
         max(s.seq) AS last
}
CALL (b) {
  MATCH (s:Set) WHERE s.boundary_id = b.id AND s.status = 'ratified'
    AND COUNT { (r:Receipt)-[:FOR]->(s) WHERE r.kind = 'commit' } <> 1
  RETURN collect(s.id) AS without_one_commit
}
CALL (b) {
  MATCH (s:Set) WHERE s.boundary_id = b.id AND s.status <> 'ratified' AND s.seq IS NOT NULL
  RETURN collect(s.id) AS refused_with_seq
}
CALL (b) {
  MATCH (p:Proposal) WHERE p.boundary_id = b.id AND p.status <> 'pending'
    AND NOT EXISTS { (p)-[:IN_SET]->(:Set) }
  RETURN collect(p.id) AS decided_without_set
}
WITH b, ratified, seqs, first, last, without_one_commit, refused_with_seq, decided_without_set
WHERE ratified <> coalesce(b.seq, 0) OR seqs <> ratified
   OR (ratified > 0 AND (first <> 1 OR last <> b.seq))
   OR size(without_one_commit) > 0 OR size(refused_with_seq) > 0
   OR size(decided_without_set) > 0
RETURN b.id AS boundary_id, b.seq AS seq, ratified, seqs, first, last, without_one_commit,
       refused_with_seq, decided_without_set
ORDER BY boundary_id
