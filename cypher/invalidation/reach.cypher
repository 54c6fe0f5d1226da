// The invalidation walk's one-read path (kg_context/record/walk.py), part 1: the boundary's seq,
// and every descendant of each failed entry over DERIVED_FROM, forward, through entries of the
// boundary only, at its least depth from that entry. A pruned breadth-first expand: each
// descendant once per failed entry, linear in the reachable subgraph, not in its paths, and
// streamed shallowest first. At most $limit rows are collected (the caller's bound + 1), so the
// statement's memory is bounded by the bound: a caller that gets $limit rows walks in pages.
// roots[k] is the index in $roots of the failed entry ids[k] descends from, depths[k] its depth.
MATCH (b:Boundary {id: $boundary_id})
CALL () {
  UNWIND range(0, size($roots) - 1) AS i
  MATCH (root:Entry {boundary_id: $boundary_id, id: $roots[i]})
    USING INDEX SEEK root:Entry(boundary_id, id)
  CALL (root) {
    MATCH p = (root)<-[:DERIVED_FROM*]-(x:Entry)
    WHERE all(n IN nodes(p) WHERE n.boundary_id = $boundary_id)
    RETURN x, min(length(p)) AS depth
  }
  WITH i, x, depth
  LIMIT $limit
  RETURN collect(i) AS roots, collect(x.id) AS ids, collect(depth) AS depths
}
RETURN b.seq AS seq, roots, ids, depths
