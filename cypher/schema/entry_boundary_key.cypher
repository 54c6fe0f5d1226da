// Composite range index: the entries of one boundary under a key (boundary_id, key): the cycle's
// recall by key and the attention loop's standing insights seek it, so their cost follows the
// boundary's entries under that key, never other boundaries'.
CREATE INDEX entry_boundary_key IF NOT EXISTS FOR (n:Entry) ON (n.boundary_id, n.key)
