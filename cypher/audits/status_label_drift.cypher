// Question: Which entries carry Browser labels that disagree with their status or residency
//   (one status label, named after the status; :Resident exactly when resident)? The label of
//   the boundary's own vector index (Vector_<digest>: kg_context/record/vector_index.py) is an
//   index's label, not a Browser one, and is not counted here.
// Parameters:
//   $boundary_id  the boundary (a string), or null for every boundary
// Expect: empty (an invariant: the gate sets labels and properties in the same statements)
UNWIND CASE WHEN $boundary_id IS NULL THEN COLLECT { MATCH (a:Boundary) RETURN a.id }
            ELSE [$boundary_id] END AS boundary
MATCH (b:Boundary {id: boundary})
MATCH (e:Entry {boundary_id: b.id})
USING INDEX SEEK e:Entry(boundary_id)
WITH e,
     reduce(label = '', part IN split(e.status, '_') |
            label + toUpper(left(part, 1)) + substring(part, 1)) AS status_label,
     reduce(label = '', part IN split(e.class, '_') |
            label + toUpper(left(part, 1)) + substring(part, 1)) AS class_label
WITH e, status_label,
     [l IN labels(e)
      WHERE NOT l IN ['Entry', 'Resident', class_label] AND NOT l STARTS WITH 'Vector_']
       AS other_labels
WHERE other_labels <> [status_label]
   OR (e.resident = true) <> ('Resident' IN labels(e))
RETURN e.boundary_id AS boundary_id, e.id AS id, e.status AS status, e.resident AS resident,
       labels(e) AS labels
ORDER BY boundary_id, id
