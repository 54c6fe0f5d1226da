// The czar's reports of one boundary recorded at a seq above $since_seq, in the order they ran
// (a traversal from the boundary, found by its id: no label scan).
MATCH (b:Boundary {id: $boundary_id})-[:CZAR_REPORT]->(r:CzarReport)
WHERE r.seq > $since_seq
RETURN r.id AS id, r.seq AS seq, toString(r.ran_at) AS ran_at, r.trigger AS trigger,
       r.proposed AS proposed, r.retired AS retired, r.window_out AS window_out,
       r.interfaces AS interfaces, r.halted AS halted, r.resident_entries AS resident_entries,
       r.resident_tokens AS resident_tokens, r.committed_tokens AS committed_tokens,
       r.warning AS warning, r.took_ms AS took_ms
ORDER BY r.ran_at, r.seq
