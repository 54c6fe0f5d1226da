// A ratified constitution set makes its version the boundary's constitution.
MATCH (b:Boundary {id: $boundary_id})
SET b.constitution_version = $version
