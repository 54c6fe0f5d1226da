// Halts in the whole database by reason code and status (open | resolved), for /metrics.
MATCH (h:Halt)
RETURN h.reason_code AS reason_code, h.status AS status, count(*) AS halts
ORDER BY reason_code, status
