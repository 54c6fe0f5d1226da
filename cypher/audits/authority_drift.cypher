// Analyst audit (must be empty): proposals of ratified sets written under a kind their writer
// could not claim: czar or operator by an id the constitution does not name ($czars,
// $operators), or another kind by a named id, or a kind other than the one the writer is
// registered with in the boundary.
MATCH (p:Proposal)-[:IN_SET]->(s:Set)
WHERE s.boundary_id = $boundary_id AND s.status = 'ratified'
OPTIONAL MATCH (w:Writer {boundary_id: $boundary_id, id: p.writer_id})
WITH p, s, w, p.writer_kind IN ['czar', 'operator'] AS authority
WHERE (p.writer_kind = 'czar' AND NOT p.writer_id IN $czars)
   OR (p.writer_kind = 'operator' AND NOT p.writer_id IN $operators)
   OR (NOT authority AND (p.writer_id IN $czars OR p.writer_id IN $operators))
   OR (NOT authority AND (w IS NULL OR w.kind <> p.writer_kind))
RETURN p.id AS proposal_id, s.id AS set_id, p.writer_id AS writer_id,
       p.writer_kind AS claimed, w.kind AS registered
ORDER BY set_id, proposal_id
