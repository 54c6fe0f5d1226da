// The boundary's current seq (the walk records the seq it saw).
MATCH (b:Boundary {id: $boundary_id})
RETURN b.seq AS seq
