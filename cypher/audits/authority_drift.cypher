// Question: Which proposals of ratified sets were written under a kind their writer could not
//   claim? Czar or operator by an id the constitution the set was decided under (its commit
//   receipt's version) does not name, another kind by an id it names, or a kind other than the
//   one the writer is registered with in the boundary.
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: authority is what the constitution names, never self-declared)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (p:Proposal)-[:IN_SET]->(s:Set {boundary_id: b.id})
USING INDEX SEEK s:Set(boundary_id)
WHERE s.status = 'ratified'
MATCH (r:Receipt)-[:FOR]->(s)
WHERE r.kind = 'commit'
MATCH (c:Constitution {version: r.constitution_version})
OPTIONAL MATCH (w:Writer {boundary_id: s.boundary_id, id: p.writer_id})
  USING INDEX SEEK w:Writer(boundary_id, id)
WITH p, s, w, coalesce(c.czars, ['czar']) AS czars, coalesce(c.operators, ['operator']) AS operators,
     p.writer_kind IN ['czar', 'operator'] AS authority
WHERE (p.writer_kind = 'czar' AND NOT p.writer_id IN czars)
   OR (p.writer_kind = 'operator' AND NOT p.writer_id IN operators)
   OR (NOT authority AND (p.writer_id IN czars OR p.writer_id IN operators))
   OR (NOT authority AND (w IS NULL OR w.kind <> p.writer_kind))
RETURN s.boundary_id AS boundary_id, p.id AS proposal_id, s.id AS set_id,
       p.writer_id AS writer_id, p.writer_kind AS claimed, w.kind AS registered
ORDER BY boundary_id, set_id, proposal_id
