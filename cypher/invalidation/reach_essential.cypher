// The invalidation walk's one-read path (kg_context/record/walk.py), part 2, run beside part 1
// (reach.cypher): the descendants of each failed entry through essential edges only, at their
// least depth from that entry, with their statuses (whether an at-risk descendant may move). It
// follows ESSENTIALLY_DERIVED_FROM, which the gate writes beside each essential DERIVED_FROM
// between two entries of one boundary (cypher/gate/write_plan.cypher; `kg-context schema apply`
// adds it to edges written before): so no edge's properties are read, and the walk stays in the
// root's boundary without a filter on each entry it passes. The same pruned breadth-first
// expand as part 1, at most $limit rows.
UNWIND range(0, size($roots) - 1) AS i
MATCH (root:Entry {boundary_id: $boundary_id, id: $roots[i]})
  USING INDEX SEEK root:Entry(boundary_id, id)
CALL (root) {
  MATCH p = (root)<-[:ESSENTIALLY_DERIVED_FROM*]-(x)
  RETURN x, min(length(p)) AS depth
}
WITH i, x, depth
LIMIT $limit
RETURN collect(i) AS roots, collect(x.id) AS ids, collect(depth) AS depths,
       collect(x.status) AS statuses
