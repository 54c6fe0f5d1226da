// One halt (the columns of halts/list), its set, and the verbatim payloads of the set's proposals
// (submission order): kg_context/gate/io/halts.py reads them as HaltRecord and HaltedSet.
MATCH (h:Halt {id: $halt_id})-[:ON]->(s:Set)
OPTIONAL MATCH (p:Proposal)-[:IN_SET]->(s)
WITH h, s, p ORDER BY p.serial
RETURN h {.id, .boundary_id, .set_id, .reason_code, .detail, .suggested_amendment, .status,
          .opened_at, .resolved_at, .resolution, .resolved_by, .resolution_seconds,
          .resolution_reason, .constitution_version, .at_seq, .parameter, .observed} AS halt,
       s {.id, .boundary_id, .status, .seq, .kind, .writer_id, .writer_ids, .summary, .closed_at,
          .explicit, .digest, .proposal_ids, .targets, .fanout, .entry_count} AS set,
       [x IN collect(p) | x.payload] AS payloads
