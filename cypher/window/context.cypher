// The window as the context reads it, in one statement: the boundary (seq, work seq, constitution
// version) and every resident entry (index seek on boundary_id, resident) with its stored body
// tokens, its own lease (expires_after_seq) and what it REQUIRES in its own boundary (needs:
// [id, resident, key] triples); promoted_by as window/resident reads it. An empty window gives
// one row with a null id.
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
       e.id AS id, e.class AS class, e.key AS key, coalesce(e.body, '') AS body,
       e.status AS status, e.tokens AS tokens, e.set_seq AS set_seq,
       coalesce(e.attributes, '{}') AS attributes, e.expires_after_seq AS expires_after_seq,
       promoted_by,
       [(e)-[:REQUIRES]->(t) WHERE t.boundary_id = $boundary_id | [t.id, t.resident, t.key]] AS needs
