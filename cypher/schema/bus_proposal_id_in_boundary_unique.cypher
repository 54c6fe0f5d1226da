// Uniqueness of BusProposal.id within its boundary: (boundary_id, id). A bus proposal's id is
// its cycle run, broadcast, subscriber and position, so a retried write changes nothing.
CREATE CONSTRAINT bus_proposal_id_in_boundary_unique IF NOT EXISTS
FOR (n:BusProposal) REQUIRE (n.boundary_id, n.id) IS UNIQUE
