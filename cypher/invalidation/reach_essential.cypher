// The invalidation walk's one-read path (kg_context/record/walk.py), part 2, run beside part 1
// (reach.cypher): the descendants of each failed entry through essential DERIVED_FROM edges
// only, in the boundary, at their least depth from that entry, with their statuses (whether an
// at-risk descendant may move). The same pruned breadth-first expand, at most $limit rows.
UNWIND range(0, size($roots) - 1) AS i
MATCH (root:Entry {boundary_id: $boundary_id, id: $roots[i]})
CALL (root) {
  MATCH p = (root)<-[:DERIVED_FROM* {essential: true}]-(x:Entry)
  WHERE all(n IN nodes(p) WHERE n.boundary_id = $boundary_id)
  RETURN x, min(length(p)) AS depth
}
WITH i, x, depth
LIMIT $limit
RETURN collect(i) AS roots, collect(x.id) AS ids, collect(depth) AS depths,
       collect(x.status) AS statuses
