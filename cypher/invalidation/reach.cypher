// The invalidation walk, part 1 (run together with part 2, essential.cypher): every descendant
// of each failed entry over DERIVED_FROM, forward, in the boundary, at its least depth (a pruned
// breadth-first expand: linear in the reachable subgraph, not in its paths).
//   kept:  ids of the descendants within $max_depth; when more than $max_nodes, the shallowest
//          $max_nodes (by depth, then id);
//   depth / deepest / within_count tell the caller whether a bound cut the walk;
//   seq is the boundary's seq this read saw.
MATCH (b:Boundary {id: $boundary_id})
UNWIND $roots AS root_id
WITH DISTINCT b, root_id
MATCH (root:Entry {boundary_id: $boundary_id, id: root_id})
CALL (root) {
  MATCH p = (root)<-[:DERIVED_FROM*]-(x:Entry)
  WHERE x.boundary_id = $boundary_id
  WITH x, min(length(p)) AS depth
  RETURN collect(CASE WHEN depth <= $max_depth THEN x.id END) AS within,
         collect(CASE WHEN depth <= $max_depth THEN depth END) AS depths,
         coalesce(max(CASE WHEN depth <= $max_depth THEN depth END), 0) AS within_depth,
         coalesce(max(depth), 0) AS deepest
}
CALL (within, depths) {
  WITH within, depths
  WHERE size(within) > $max_nodes
  UNWIND range(0, size(within) - 1) AS i
  WITH within[i] AS id, depths[i] AS depth
  ORDER BY depth, id
  LIMIT $max_nodes
  RETURN collect(id) AS shallowest, coalesce(max(depth), 0) AS shallowest_depth
}
RETURN b.seq AS seq, root.id AS root, deepest, size(within) AS within_count,
       CASE WHEN size(within) > $max_nodes THEN shallowest ELSE within END AS kept,
       CASE WHEN size(within) > $max_nodes THEN shallowest_depth ELSE within_depth END AS depth
ORDER BY root
