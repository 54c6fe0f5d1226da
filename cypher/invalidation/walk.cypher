// The invalidation walk, forward over provenance, from each failed entry (one row per entry):
// two pruned breadth-first traversals (the planner's BFS var-length expand: linear in the
// reachable subgraph, not in its paths), each descendant at its least depth.
//   kept:      descendants in the boundary within $max_depth; when more than $max_nodes, the
//              shallowest $max_nodes (by depth, then id);
//   essential: those of them (kept) reachable through essential DERIVED_FROM edges only,
//              within $max_depth: at_risk when their status is in $movable, else blocked;
//   flagged:   the rest of kept (reached only through a supporting edge).
// deepest / essential_deepest / within_count tell the caller whether a bound cut the walk;
// seq is the boundary's seq the walk saw.
MATCH (b:Boundary {id: $boundary_id})
MATCH (root:Entry)
WHERE root.id IN $roots AND root.boundary_id = $boundary_id
CALL (root) {
  MATCH p = (root)<-[:DERIVED_FROM*]-(x:Entry)
  WHERE x.boundary_id = $boundary_id
  WITH x, min(length(p)) AS depth
  RETURN collect(CASE WHEN depth <= $max_depth THEN x END) AS within,
         collect(CASE WHEN depth <= $max_depth THEN depth END) AS depths,
         coalesce(max(CASE WHEN depth <= $max_depth THEN depth END), 0) AS within_depth,
         coalesce(max(depth), 0) AS deepest
}
CALL (within, depths) {
  WITH within, depths
  WHERE size(within) > $max_nodes
  UNWIND range(0, size(within) - 1) AS i
  WITH within[i] AS x, depths[i] AS depth
  ORDER BY depth, x.id
  LIMIT $max_nodes
  RETURN collect(x) AS shallowest, coalesce(max(depth), 0) AS shallowest_depth
}
WITH b, root, deepest, size(within) AS within_count,
     CASE WHEN size(within) > $max_nodes THEN shallowest ELSE within END AS kept,
     CASE WHEN size(within) > $max_nodes THEN shallowest_depth ELSE within_depth END AS depth
CALL (root, kept) {
  MATCH p = (root)<-[:DERIVED_FROM*]-(x:Entry)
  WHERE all(r IN relationships(p) WHERE r.essential)
  WITH x, min(length(p)) AS depth
  RETURN collect(CASE WHEN depth <= $max_depth AND x IN kept THEN x END) AS essential,
         coalesce(max(depth), 0) AS essential_deepest
}
RETURN b.seq AS seq, root.id AS root, depth, deepest, essential_deepest, within_count,
       [x IN essential WHERE x.status IN $movable | x.id] AS at_risk,
       [x IN essential WHERE NOT x.status IN $movable | x.id] AS blocked,
       [x IN essential WHERE NOT x.status IN $movable | x.status] AS blocked_statuses,
       [x IN kept WHERE NOT x IN essential | x.id] AS flagged
ORDER BY root
