// Analyst audit: entries whose Browser labels disagree with their status or residency (none:
// the gate sets both in the same statements). $status_labels maps status -> label.
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id
WITH e, $status_labels[e.status] AS expected
WHERE NOT expected IN labels(e)
   OR size([l IN labels(e) WHERE l IN $all_status_labels]) <> 1
   OR (e.resident = true) <> ('Resident' IN labels(e))
RETURN e.id AS id, e.status AS status, e.resident AS resident, labels(e) AS labels
