// Analyst audit: superseded entries still in the window (a healthy boundary returns none).
MATCH (e:Entry)
WHERE e.boundary_id = $boundary_id AND e.status = 'superseded' AND e.resident = true
RETURN e.id AS id, e.key AS key, e.superseded_by AS superseded_by
