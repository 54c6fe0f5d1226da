// Question: Which ratified czar sets moved entries that the same czar wrote itself (a czar
//   never compacts its own work; its interfaces follow their sources: one of its own interfaces
//   may leave as unreachable or come back as reachable)?
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate rejects such a set with CZAR_INDEPENDENCE)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (s:Set {boundary_id: b.id})
USING INDEX SEEK s:Set(boundary_id)
WHERE s.status = 'ratified'
CALL (s) {
  MATCH (s)-[:BY]->(w:Writer)
  WHERE w.kind = 'czar'
  MATCH (s)-[t:TRANSITIONED]->(e:Entry)<-[:CONTAINS]-(origin:Set)
  WHERE EXISTS { (origin)-[:BY]->(w) }
    AND NOT (e.class = 'interface' AND t.case IN ['UNREACHABLE', 'REACHABLE'])
  RETURN w, t, e, origin
}
RETURN s.boundary_id AS boundary_id, s.id AS czar_set, w.id AS czar_id, e.id AS entry_id,
       origin.id AS written_in_set, t.from AS from, t.to AS to, t.seq AS seq
ORDER BY boundary_id, seq, entry_id
