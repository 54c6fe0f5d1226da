// An operator's foundational marks (kg_context/gate/leases.py; the gate checked the writer is a
// named operator and the entry standing): the entry records who marked it, in which set, at
// which seq; every soft/reconstructible REQUIRES edge into it from a standing entry now holds
// while the mark stands, and each is recorded as a renewal of kind 'foundational' (until: null,
// the lease no longer ends).
UNWIND $marks AS row
MATCH (t:Entry {boundary_id: $boundary_id, id: row.entry_id})
SET t.foundational = true, t.foundational_by = row.by, t.foundational_seq = row.seq,
    t.foundational_set_id = row.set_id
WITH row, t
OPTIONAL MATCH (d:Entry)-[r:REQUIRES]->(t)
WHERE d.boundary_id = $boundary_id AND d.status IN $standing AND r.policy <> 'hard'
FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
  CREATE (n:LeaseRenewal {id: row.set_id + '/renew/foundational/' + t.id + '/' + d.id,
                          boundary_id: $boundary_id, kind: 'foundational', seq: row.seq,
                          work_seq: row.work, from_id: d.id, to_id: t.id, by_id: row.by,
                          set_id: row.set_id,
                          previous_until: coalesce(r.lease_until_seq,
                                                   coalesce(r.set_work, r.set_seq) + $default_lease),
                          until: null})
  CREATE (n)-[:RENEWS]->(t)
  SET r.renewed_at_seq = row.seq, r.renewed_by = row.by, r.renewal_kind = 'foundational')
