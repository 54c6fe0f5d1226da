// The window: every resident entry of one boundary (index seek on boundary_id, resident).
// promoted_by: for a scratch entry ($scratch_class, e.g. a recall copy), the first committed entry
// of another set that holds it through REQUIRES (directly, or through the copies of its own set,
// at most 32 hops back): the copy was promoted, so its "one use" is over and it stays held.
MATCH (e:Entry)
USING INDEX SEEK e:Entry(boundary_id, resident)
WHERE e.boundary_id = $boundary_id AND e.resident = true
WITH e, CASE WHEN e.class <> $scratch_class THEN null ELSE COLLECT {
  MATCH (holder:Entry)-[:REQUIRES*1..32]->(e)
  WHERE holder.boundary_id = $boundary_id AND holder.set_id <> e.set_id
  RETURN holder.id ORDER BY holder.set_seq, holder.id LIMIT 1
}[0] END AS promoted_by
RETURN e.id AS id, e.class AS class, e.key AS key, coalesce(e.body, '') AS body,
       e.status AS status, coalesce(e.tokens, 0) AS tokens, e.set_seq AS set_seq,
       e.set_id AS set_id, coalesce(e.attributes, '{}') AS attributes,
       e.expires_after_seq AS expires_after_seq, promoted_by
ORDER BY class, set_seq, id
