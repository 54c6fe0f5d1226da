// The invalidation walk, one page (kg_context/record/walk.py drives it level by level): the
// DERIVED_FROM children of at most page_size entries of one level, in the boundary, one row per
// edge, streamed: nothing is collected or sorted here, so the statement's memory is one row's
// whatever the page's fan-out (the walk's own state, one id per descendant, lives in the caller).
UNWIND $parents AS parent_id
MATCH (parent:Entry {boundary_id: $boundary_id, id: parent_id})<-[r:DERIVED_FROM]-(child:Entry)
WHERE child.boundary_id = $boundary_id
RETURN parent_id AS parent, child.id AS child, r.essential AS essential, child.status AS status
