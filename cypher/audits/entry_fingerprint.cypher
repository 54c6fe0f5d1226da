// Question: What is the state of some boundaries, to compare before and after an act? Each
//   boundary's seq, and every entry's status, residency and out-degree (the edges it holds).
// Parameters:
//   $boundary_ids  the boundaries (a list of strings)
// Expect: rows
CALL {
  MATCH (b:Boundary) WHERE b.id IN $boundary_ids
  RETURN collect({id: b.id, seq: coalesce(b.seq, 0)}) AS boundaries
}
CALL {
  MATCH (e:Entry) WHERE e.boundary_id IN $boundary_ids
  RETURN collect({boundary_id: e.boundary_id, id: e.id, status: e.status, resident: e.resident,
                  out: COUNT { (e)-->() }}) AS entries
}
RETURN boundaries, entries
