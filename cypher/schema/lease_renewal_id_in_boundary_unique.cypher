// Uniqueness of LeaseRenewal.id within its boundary: (boundary_id, id) (a renewal's id names
// its set, kind, renewer and renewed edge; the gate writes each once).
CREATE CONSTRAINT lease_renewal_id_in_boundary_unique IF NOT EXISTS
FOR (n:LeaseRenewal) REQUIRE (n.boundary_id, n.id) IS UNIQUE
