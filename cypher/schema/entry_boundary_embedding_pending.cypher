// Composite range index: the entries of one boundary still waiting for an embedding
// (boundary_id, embedding_pending). The gate writes embedding_pending = true on every new entry
// and embedding it removes the marker, so finding what to embed costs the pending entries only,
// not the boundary's whole record.
CREATE INDEX entry_boundary_embedding_pending IF NOT EXISTS
FOR (n:Entry) ON (n.boundary_id, n.embedding_pending)
