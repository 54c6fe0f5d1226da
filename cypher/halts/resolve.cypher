// Close an open halt with the operator's resolution; the time it stayed open is recorded; its
// status label follows (:Open -> :Resolved).
MATCH (h:Halt {id: $halt_id})
WHERE h.status = 'open'
REMOVE h:Open
SET h:Resolved, h.status = 'resolved', h.resolved_at = $now, h.resolution = $resolution,
    h.resolved_by = $operator_id, h.resolution_reason = $reason,
    h.resolution_seconds = duration.inSeconds(datetime(h.opened_at), datetime($now)).milliseconds / 1000.0
RETURN h.id AS id, h.resolution_seconds AS resolution_seconds
