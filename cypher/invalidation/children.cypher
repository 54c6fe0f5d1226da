// The invalidation walk, one page (kg_context/record/walk.py drives it level by level): the
// DERIVED_FROM children of at most page_size entries of one level, in the boundary, one row per
// entry of the page, streamed: a row holds one entry's children (ids, essential flags, statuses),
// at most $cap of them, the smallest ids first (a top-$cap, so never more than $cap in memory).
// The caller passes $cap = max_nodes + its failed entries + 1: the walk cannot keep more than
// that from one entry's children, and the smallest ids are the ones its size bound keeps. The
// statement's memory is one entry's capped children, whatever the blast radius.
UNWIND $parents AS parent_id
MATCH (parent:Entry {boundary_id: $boundary_id, id: parent_id})
  USING INDEX SEEK parent:Entry(boundary_id, id)
CALL (parent) {
  MATCH (parent)<-[r:DERIVED_FROM]-(child)
  WHERE child.boundary_id = $boundary_id
  WITH child, r ORDER BY child.id LIMIT $cap
  RETURN collect(child.id) AS children, collect(r.essential) AS essential,
         collect(child.status) AS statuses
}
RETURN parent_id AS parent, children, essential, statuses
