// An operator's briefing, recorded as an audit event of the boundary:
// (:Boundary)-[:BRIEFING]->(:Briefing:AuditEvent {kind: 'briefing', ...}). $props carries what
// it covered (id, since_seq, counts, warnings); seq and at are the boundary's seq and now.
// The boundary's lock first, by a plain write (as cypher/gate/lock_boundary.cypher explains).
MATCH (b:Boundary {id: $boundary_id})
SET b.briefed_at = datetime($at)
WITH b
CREATE (b)-[:BRIEFING]->(r:Briefing:AuditEvent)
SET r = $props, r.boundary_id = b.id, r.kind = 'briefing', r.seq = coalesce(b.seq, 0),
    r.at = datetime($at)
RETURN r.id AS id, r.seq AS seq, toString(r.at) AS at
