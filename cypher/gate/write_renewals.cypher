// Lease renewals caused by a committed work set (kg_context/gate/leases.py): for each row, the
// set's entry $row.by requires (live_reference) or is derived from (use) the standing entry
// $row.to; every soft/reconstructible REQUIRES edge into it from another standing entry (not
// of the renewing set) whose lease would end sooner gets its own lease restarted at the set's
// work seq: lease_until_seq = row.work + (its lease_sets, or $default_lease when it declared
// none). Each renewal is recorded: (:LeaseRenewal {kind, seq, work_seq, from_id, to_id, by_id,
// set_id, previous_until, until})-[:RENEWS]->(to), -[:BY]->(the renewing entry).
UNWIND $renewals AS row
MATCH (t:Entry {boundary_id: $boundary_id, id: row.to})
WHERE t.status IN $standing
MATCH (by:Entry {boundary_id: $boundary_id, id: row.by})
MATCH (d:Entry)-[r:REQUIRES]->(t)
WHERE d.boundary_id = $boundary_id AND r.policy <> 'hard' AND d.status IN $standing
  AND d.set_id <> row.set_id
WITH row, t, by, d, r,
     coalesce(r.lease_until_seq, coalesce(r.set_work, r.set_seq) + $default_lease) AS before,
     row.work + coalesce(r.lease_sets, $default_lease) AS until
WHERE until > before
SET r.lease_until_seq = until, r.renewed_at_seq = row.seq, r.renewed_by = row.by,
    r.renewal_kind = row.kind
CREATE (n:LeaseRenewal {id: row.set_id + '/renew/' + row.kind + '/' + row.by + '/' + d.id + '/' + t.id,
                        boundary_id: $boundary_id, kind: row.kind, seq: row.seq,
                        work_seq: row.work, from_id: d.id, to_id: t.id, by_id: row.by,
                        set_id: row.set_id, previous_until: before, until: until})
CREATE (n)-[:RENEWS]->(t), (n)-[:BY]->(by)
RETURN count(n) AS renewed
