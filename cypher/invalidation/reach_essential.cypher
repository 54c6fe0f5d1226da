// The invalidation walk's one-read path (kg_context/record/walk.py), part 2, run beside part 1
// (reach.cypher): the descendants of each failed entry through essential edges only, at their
// least depth from that entry, and those of them whose status may not move to at_risk (the
// status is not in $movable: the status machine's, from kg_context/record/walk.py) with it. It
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
WITH collect(i) AS roots, collect(x) AS reached, collect(depth) AS depths
WITH roots, reached, depths, [x IN reached WHERE NOT x.status IN $movable] AS unmovable
RETURN roots, [x IN reached | x.id] AS ids, depths,
       [x IN unmovable | x.id] AS unmovable_ids, [x IN unmovable | x.status] AS unmovable_statuses
