// Create a coherence boundary if it does not exist (idempotent); return it.
MERGE (b:Boundary {id: $boundary_id})
  ON CREATE SET b.seq = 0, b.verse = $verse, b.constitution_version = $constitution_version,
                b.created_at = datetime()
RETURN b.id AS id, b.seq AS seq, b.verse AS verse, b.constitution_version AS constitution_version,
       toString(b.created_at) AS created_at
