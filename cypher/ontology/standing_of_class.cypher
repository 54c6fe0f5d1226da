// The standing entries of one class in a boundary ($standing: live, revalidated, challenged):
// those an ontology change puts at risk. Retired, superseded, invalidated and explored entries
// are not read: the change never rereads what the regime retired.
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id AND e.class = $entry_class AND e.status IN $standing
RETURN e.id AS id, e.status AS status
ORDER BY e.set_seq, e.id
