// The window as the context reads it, in one statement: the boundary (seq, work seq, constitution
// version) and every resident entry (index seek on boundary_id, resident) with its stored body
// tokens, its own lease (expires_after_seq) and what it REQUIRES in its own boundary (needs:
// [id, resident, key] triples); promoted_by as window/resident reads it. One row (none when there
// is no such boundary): the entries in one list, empty for an empty window (a record each cost
// the driver more than the server's read).
MATCH (b:Boundary {id: $boundary_id})
OPTIONAL MATCH (e:Entry)
USING INDEX SEEK e:Entry(boundary_id, resident)
WHERE e.boundary_id = $boundary_id AND e.resident = true
WITH b, e, CASE WHEN e IS NULL OR e.class <> $scratch_class THEN null ELSE COLLECT {
  MATCH (holder:Entry)-[:REQUIRES*1..32]->(e)
  WHERE holder.boundary_id = $boundary_id AND holder.set_id <> e.set_id
  RETURN holder.id ORDER BY holder.set_seq, holder.id LIMIT 1
}[0] END AS promoted_by
RETURN b.seq AS seq, coalesce(b.work_seq, b.seq) AS work_seq,
       b.constitution_version AS constitution_version,
       collect(CASE WHEN e IS NOT NULL THEN {
         id: e.id, class: e.class, key: e.key, body: coalesce(e.body, ''), status: e.status,
         tokens: e.tokens, set_seq: e.set_seq, attributes: coalesce(e.attributes, '{}'),
         expires_after_seq: e.expires_after_seq, promoted_by: promoted_by,
         needs: [(e)-[:REQUIRES]->(t) WHERE t.boundary_id = $boundary_id
                 | [t.id, t.resident, t.key]]} END) AS entries
