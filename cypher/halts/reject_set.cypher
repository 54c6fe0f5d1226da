// An operator rejects a halted set: the set and its proposals are rejected (nothing else changes).
MATCH (s:Set {boundary_id: $boundary_id, id: $set_id})
  USING INDEX SEEK s:Set(boundary_id, id)
WHERE s.status = 'halted'
REMOVE s:Halted
SET s:Rejected, s.status = 'rejected'
WITH s
MATCH (p:Proposal)-[:IN_SET]->(s)
SET p.status = 'rejected'
RETURN count(p) AS proposals
