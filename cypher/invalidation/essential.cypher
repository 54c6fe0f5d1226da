// The invalidation walk, part 2 (run together with part 1, reach.cypher): the descendants of
// each failed entry reachable through essential DERIVED_FROM edges only, within $max_depth.
// movable: those whose status may move to at_risk ($movable); blocked (with their statuses):
// the others. The caller keeps only those part 1 kept; kept but not essential is flagged.
UNWIND $roots AS root_id
WITH DISTINCT root_id
MATCH (root:Entry {boundary_id: $boundary_id, id: root_id})
CALL (root) {
  MATCH p = (root)<-[:DERIVED_FROM*]-(x:Entry)
  WHERE all(r IN relationships(p) WHERE r.essential) AND x.boundary_id = $boundary_id
  WITH x, min(length(p)) AS depth
  WITH collect(CASE WHEN depth <= $max_depth THEN x END) AS essential,
       coalesce(max(depth), 0) AS essential_deepest
  RETURN [x IN essential WHERE x.status IN $movable | x.id] AS movable,
         [x IN essential WHERE NOT x.status IN $movable | x.id] AS blocked,
         [x IN essential WHERE NOT x.status IN $movable | x.status] AS blocked_statuses,
         essential_deepest
}
RETURN root.id AS root, movable, blocked, blocked_statuses, essential_deepest
ORDER BY root
